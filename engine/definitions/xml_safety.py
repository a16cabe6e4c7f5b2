"""Parses uploaded BPMN/DMN with entity expansion, DTDs and network access all disabled."""
from __future__ import annotations

from lxml import etree

from engine.config.deploy_limits import MAX_FILE_BYTES
from engine.errors import BadRequest

__all__ = ["MAX_FILE_BYTES", "parse_xml"]


def _parser() -> etree.XMLParser:
    # A fresh parser per call: lxml parsers are not thread-safe.
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_comments=False)


def parse_xml(content: bytes, filename: str) -> etree._Element:
    """Return the root element, or BadRequest naming the file (and line) at fault."""
    if len(content) > MAX_FILE_BYTES:
        raise BadRequest(f"{filename} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB",
                         {filename: ["FILE_TOO_LARGE"]})
    head = content[:4096].lower()
    # Any DTD is refused outright: BPMN never needs one, and it is how entity attacks start.
    if b"<!doctype" in head or b"<!entity" in content.lower():
        raise BadRequest(f"{filename}: a DOCTYPE or ENTITY declaration is not allowed",
                         {filename: ["DOCTYPE_NOT_ALLOWED"]})
    try:
        root = etree.fromstring(content, parser=_parser())
    except etree.XMLSyntaxError as exc:
        line = getattr(exc, "lineno", None)
        where = f" (line {line})" if line else ""
        raise BadRequest(f"{filename} is not well-formed XML{where}: {exc.msg}",
                         {filename: [f"MALFORMED_XML{where}: {exc.msg}"]}) from None
    if root.getroottree().docinfo.doctype:
        raise BadRequest(f"{filename}: a DOCTYPE is not allowed", {filename: ["DOCTYPE_NOT_ALLOWED"]})
    return root
