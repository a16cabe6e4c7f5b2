"""A task's instructions from the diagram, drawn above its form: Markdown with the case's variables.

The text comes from whoever models the diagram, so it is treated as hostile. Placeholders are
filled by a sandboxed, autoescaping Jinja environment that allows only reading values (names,
attributes, items, a few filters, `if`): no loops, calls or arithmetic, so rendering is bounded by
the text's length and reaches nothing of Python. A missing variable is empty. Markdown runs with
raw HTML off (a `<script>` in the text shows as text), and nh3 keeps only plain tags and
http/https/mailto links of what comes out.
"""
from __future__ import annotations

import nh3
from jinja2 import ChainableUndefined, TemplateError, nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

MAX_SOURCE = 20_000
# A method reached by name (`{{ note.upper }}`) prints as nothing, not as its repr.
_ENV = ImmutableSandboxedEnvironment(autoescape=True, undefined=ChainableUndefined,
                                     finalize=lambda value: "" if callable(value) else value)
_ENV.globals.clear()  # no lipsum, cycler, range...: the case's variables are all a text can name
_FILTERS = {"default", "d", "upper", "lower", "capitalize", "title", "trim", "join", "length", "first", "last"}
_NODES = (nodes.Template, nodes.Output, nodes.TemplateData, nodes.Name, nodes.Getattr, nodes.Getitem, nodes.Const,
          nodes.If, nodes.CondExpr, nodes.Compare, nodes.Operand, nodes.And, nodes.Or, nodes.Not, nodes.Filter,
          nodes.List, nodes.Tuple)
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
_TAGS = {"p", "br", "strong", "em", "b", "i", "ul", "ol", "li", "a", "code", "pre", "blockquote", "h3", "h4", "h5",
         "h6", "hr", "table", "thead", "tbody", "tr", "th", "td"}


def _allowed(tree) -> bool:
    for node in tree.find_all(nodes.Node):
        if not isinstance(node, _NODES):
            return False
        if isinstance(node, nodes.Filter) and node.name not in _FILTERS:
            return False
        if isinstance(node, (nodes.Getattr,)) and str(node.attr).startswith("_"):
            return False
    return True


def _fill(source: str, variables: dict) -> str:
    """The text with its placeholders filled, each value HTML-escaped; a template it may not run
    (a loop, a call, a syntax error) is shown as written, escaped."""
    try:
        if _allowed(_ENV.parse(source)):
            return _ENV.from_string(source).render(**{k: v for k, v in (variables or {}).items()
                                                     if isinstance(k, str) and k.isidentifier()})
    except (TemplateError, TypeError, ValueError, RecursionError):
        pass
    return str(escape(source))


def render(source: str, variables: dict) -> Markup:
    """Safe HTML for the instructions, or an empty Markup when there are none."""
    if not source or not source.strip():
        return Markup("")
    filled = _fill(source[:MAX_SOURCE], variables)
    html = _MARKDOWN.render(filled)
    # Headings start at h3: the page's h1/h2 stay the page's.
    for level in (1, 2):
        html = html.replace(f"<h{level}>", "<h3>").replace(f"</h{level}>", "</h3>")
    clean = nh3.clean(html, tags=_TAGS, attributes={"a": {"href", "title"}, "th": {"align"}, "td": {"align"}},
                      url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer nofollow")
    return Markup(clean)
