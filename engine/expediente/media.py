"""What a file is, judged by its bytes and never by its name.

`filetype` reads the magic numbers; DOCX and ODT are zip archives, so a zip is looked into: an ODT
names its media type in the `mimetype` entry, a DOCX has `[Content_Types].xml` declaring the main
WordprocessingML part. A renamed executable, script or plain zip is none of these.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

import filetype

PDF, PNG, JPEG, TIFF = "application/pdf", "image/png", "image/jpeg", "image/tiff"
ODT = "application/vnd.oasis.opendocument.text"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
ACCEPTED = (PDF, PNG, JPEG, TIFF, ODT, DOCX)
EXTENSIONS = {PDF: "pdf", PNG: "png", JPEG: "jpg", TIFF: "tif", ODT: "odt", DOCX: "docx"}
_DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def sniff(path: Path) -> str | None:
    """The accepted media type of the file at `path`, or None when it is none of them."""
    with open(path, "rb") as f:
        head = f.read(8192)
    kind = filetype.guess(head)
    mime = kind.mime if kind else None
    if mime in (PDF, PNG, JPEG, TIFF):
        return mime
    if head.startswith(b"PK\x03\x04"):
        return _office(path)
    return None


def _office(path: Path) -> str | None:
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if "mimetype" in names:
                declared = archive.read("mimetype")[:200].strip().decode("ascii", "replace")
                return ODT if declared == ODT else None
            if "[Content_Types].xml" in names and "word/document.xml" in names:
                types = archive.read("[Content_Types].xml")[:1_000_000].decode("utf-8", "replace")
                return DOCX if _DOCX_MAIN in types else None
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, KeyError):
        return None
    return None
