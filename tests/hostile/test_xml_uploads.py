"""Hostile XML through the deploy endpoint: entities, entity expansion, documents that point at the
network, and uploads too large to read. Each is refused with 400 (413 for a body over the request
limit) quickly, without fetching anything and without reading a huge body into memory."""
from __future__ import annotations

import io
import json
import time

import pytest

from tests.support import bpmn as b

DEPLOY = "/api/v1/processes/test_hostile/versions"
NS = 'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"'
QUICK = 5.0  # seconds: a refusal that takes longer is doing the work it should refuse


def valid_files() -> dict[str, str]:
    xml = b.diagram("test_hostile", lanes={"test_clerk": ["start", "intake", "end"]},
                    nodes=[b.start(), b.user("intake"), b.end()], flows=b.chain("start", "intake", "end"))
    return {"hostile.bpmn": xml, "intake.schema.json": b.form({})}


def with_doctype(doctype: str, body: str = "&payload;") -> str:
    """The valid diagram with `doctype` before its root and `body` inside the process name."""
    xml = valid_files()["hostile.bpmn"]
    head, rest = xml.split("\n", 1)
    rest = rest.replace('name="test_hostile"', f'name="{body}"', 1)
    return f"{head}\n{doctype}\n{rest}"


def upload(api, files: dict[str, bytes | str], as_user: str = "owner"):
    data = {"files": [(io.BytesIO(c if isinstance(c, bytes) else c.encode()), n) for n, c in files.items()]}
    started = time.perf_counter()
    response = api.call("POST", DEPLOY, as_user, data=data, content_type="multipart/form-data")
    elapsed = time.perf_counter() - started
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    return response, elapsed


def assert_refused(response, elapsed, filename="hostile.bpmn", code="DOCTYPE_NOT_ALLOWED"):
    body = response.get_json()
    assert response.status_code == 400, body
    assert elapsed < QUICK, f"refusal took {elapsed:.1f} s"
    assert body["code"] == 400 and body["status"] == "Bad Request"
    assert any(code in message for message in body["errors"][filename]), body
    assert "root:" not in response.get_data(as_text=True)


def assert_nothing_deployed(api):
    assert api.get("/api/v1/processes", "owner") == []


def test_the_valid_diagram_deploys(api):
    # The baseline every attack below is a variation of.
    assert api.deploy("test_hostile", valid_files())["version"] == 1


@pytest.mark.parametrize("doctype", [
    '<!DOCTYPE d [<!ENTITY payload SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE d [<!ENTITY % file SYSTEM "file:///etc/passwd"><!ENTITY % wrap "<!ENTITY payload \'%file;\'>">'
    ' %wrap;]>',
    '<!DOCTYPE d [<!ENTITY payload SYSTEM "php://filter/resource=/etc/passwd">]>',
    '<!doctype d [<!entity payload system "file:///etc/passwd">]>',
], ids=["general-entity", "parameter-entity", "php-filter", "lower-case"])
def test_external_entities_reading_local_files_are_refused(api, doctype):
    files = {**valid_files(), "hostile.bpmn": with_doctype(doctype)}
    assert_refused(*upload(api, files))
    assert_nothing_deployed(api)


def billion_laughs(levels: int = 10) -> str:
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels)]
    return f"<!DOCTYPE d [{''.join(entities)}]>"


def test_billion_laughs_is_refused_before_any_expansion(api):
    files = {**valid_files(), "hostile.bpmn": with_doctype(billion_laughs(), "&lol9;")}
    assert_refused(*upload(api, files))
    assert_nothing_deployed(api)


def test_quadratic_blowup_is_refused(api):
    # One large entity referenced many times: no nesting for a depth limit to catch.
    doctype = f'<!DOCTYPE d [<!ENTITY big "{"x" * 50_000}">]>'
    files = {**valid_files(), "hostile.bpmn": with_doctype(doctype, "&big;" * 20_000)}
    assert_refused(*upload(api, files))


def test_an_entity_declared_deep_in_the_file_is_refused(api):
    # Past the first 4 KB, where a check of the file's head alone would not look.
    padding = "<!--" + "p" * 10_000 + "-->"
    files = {**valid_files(), "hostile.bpmn": with_doctype(
        padding + '<!DOCTYPE d [<!ENTITY payload SYSTEM "file:///etc/passwd">]>')}
    assert_refused(*upload(api, files))


def test_a_dmn_file_gets_the_same_treatment(api):
    dmn = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY payload SYSTEM "file:///etc/passwd">]>'
           '<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="&payload;"/>')
    assert_refused(*upload(api, {**valid_files(), "rules.dmn": dmn}), filename="rules.dmn")


@pytest.mark.parametrize("attack", [
    "external-dtd", "external-entity", "parameter-entity", "dtd-after-4kb", "utf16-dtd"])
def test_documents_pointing_at_the_network_are_refused_and_nothing_is_fetched(api, tripwire, attack):
    url = tripwire.url(f"/{attack}")
    doctype = {
        "external-dtd": f'<!DOCTYPE d SYSTEM "{url}">',
        "external-entity": f'<!DOCTYPE d [<!ENTITY payload SYSTEM "{url}">]>',
        "parameter-entity": f'<!DOCTYPE d [<!ENTITY % remote SYSTEM "{url}"> %remote;]>',
        "dtd-after-4kb": "<!--" + "p" * 10_000 + f'--><!DOCTYPE d SYSTEM "{url}">',
        "utf16-dtd": f'<!DOCTYPE d SYSTEM "{url}">',
    }[attack]
    body = "&payload;" if attack == "external-entity" else "test_hostile"
    xml = with_doctype(doctype, body)
    content = xml.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16") \
        if attack == "utf16-dtd" else xml.encode()
    response, elapsed = upload(api, {**valid_files(), "hostile.bpmn": content})
    expected = "NOT_UTF8" if attack == "utf16-dtd" else "DOCTYPE_NOT_ALLOWED"
    assert_refused(response, elapsed, code=expected)
    assert tripwire.requests == []
    assert "FETCHED-FROM-THE-NETWORK" not in response.get_data(as_text=True)


@pytest.mark.parametrize("href", ["network", "file"])
def test_xinclude_and_schema_locations_are_never_followed(api, tripwire, href):
    # Neither needs a DOCTYPE, so the DOCTYPE refusal does not cover them: the parser must simply
    # not process XInclude nor load schemas. Deploy may accept the file; it must not fetch or
    # splice anything into it.
    target = tripwire.url("/xinclude") if href == "network" else "file:///etc/passwd"
    xml = valid_files()["hostile.bpmn"].replace(
        "<bpmn:definitions ", '<bpmn:definitions xmlns:xi="http://www.w3.org/2001/XInclude" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="http://www.omg.org/spec/BPMN/20100524/MODEL {tripwire.url("/schema.xsd")}" ', 1
    ).replace("</bpmn:process>", f'</bpmn:process><xi:include href="{target}" parse="text"/>', 1)
    response, elapsed = upload(api, {**valid_files(), "hostile.bpmn": xml})
    assert response.status_code in (200, 201, 400) and elapsed < QUICK
    assert tripwire.requests == []
    if response.status_code == 201:
        stored = api.call("GET", "/api/v1/processes/test_hostile/versions/1/bpmn", "owner", 200)
        text = stored.get_data(as_text=True)
        assert "root:" not in text and "FETCHED-FROM-THE-NETWORK" not in text


def test_a_form_schema_with_a_remote_ref_fetches_nothing(api, tripwire):
    files = valid_files()
    files["intake.schema.json"] = json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
        "properties": {"name": {"$ref": tripwire.url("/schema.json")}}})
    response, _ = upload(api, files)
    assert response.status_code == 400 and "only local $ref" in response.get_data(as_text=True)
    assert tripwire.requests == []


# --- sizes ---------------------------------------------------------------------------------------

class HugeUpload(io.RawIOBase):
    """A multipart body of `size` bytes made on demand, counting how much of it the server reads."""

    BOUNDARY = "hostile-boundary"

    def __init__(self, size: int):
        self.head = (f"--{self.BOUNDARY}\r\nContent-Disposition: form-data; name=\"files\"; "
                     f"filename=\"huge.bpmn\"\r\nContent-Type: application/xml\r\n\r\n<").encode()
        self.size = size
        self.served = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.served

    def seek(self, offset, whence=io.SEEK_SET):
        # The test client rewinds the body before sending it; nothing else moves in it.
        if whence == io.SEEK_SET:
            self.served = offset
        elif whence == io.SEEK_END:
            self.served = self.size + offset
        else:
            self.served += offset
        return self.served

    def readinto(self, buffer):
        n = min(len(buffer), self.size - self.served)
        if n <= 0:
            return 0
        chunk = self.head[self.served:self.served + n] if self.served < len(self.head) else b""
        buffer[:n] = chunk + b"a" * (n - len(chunk))
        self.served += n
        return n


HUNDRED_MB = 100 * 1024 * 1024


def test_a_100_mb_upload_is_refused_before_its_body_is_read(api):
    body = HugeUpload(HUNDRED_MB)
    started = time.perf_counter()
    response = api.call("POST", DEPLOY, "owner", input_stream=body, content_length=HUNDRED_MB,
                        content_type=f"multipart/form-data; boundary={HugeUpload.BOUNDARY}")
    elapsed = time.perf_counter() - started
    assert response.status_code == 413, response.get_data(as_text=True)[:500]
    assert response.get_json()["code"] == 413
    assert body.served < 1024 * 1024, f"the server read {body.served} bytes of a refused body"
    assert elapsed < QUICK
    assert_nothing_deployed(api)


def test_a_100_mb_upload_without_a_length_stops_at_the_request_limit(api):
    # Chunked transfer: no Content-Length to refuse on, so the server stops reading at its limit.
    from api.app import MAX_REQUEST_BYTES
    body = HugeUpload(HUNDRED_MB)
    started = time.perf_counter()
    response = api.call("POST", DEPLOY, "owner", input_stream=body,
                        content_type=f"multipart/form-data; boundary={HugeUpload.BOUNDARY}",
                        environ_overrides={"wsgi.input_terminated": True})
    elapsed = time.perf_counter() - started
    assert response.status_code == 413, response.get_data(as_text=True)[:500]
    assert body.served <= MAX_REQUEST_BYTES + 1024 * 1024
    assert elapsed < QUICK * 2
    assert_nothing_deployed(api)


def test_a_file_over_the_per_file_limit_is_refused_with_400_naming_it(api):
    from engine.definitions.xml_safety import MAX_FILE_BYTES
    xml = valid_files()["hostile.bpmn"].replace("</bpmn:definitions>",
                                                 "<!--" + "x" * MAX_FILE_BYTES + "--></bpmn:definitions>")
    assert_refused(*upload(api, {**valid_files(), "hostile.bpmn": xml}), code="FILE_TOO_LARGE")
