"""A JSON value's shape as the names of its leaves' types: two decodings that agree in value may not in
type (an integer read as a float), and the tests of the JSON codecs compare both."""


def types_of(value):
    if isinstance(value, dict):
        return {k: types_of(v) for k, v in value.items()}
    if isinstance(value, list):
        return [types_of(v) for v in value]
    return type(value).__name__
