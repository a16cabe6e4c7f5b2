"""The case file (expediente): the document-type catalogues, the documents' storage, the documents
and internal notes of a case, and the certified export. Commands (engine/commands/documents.py)
decide who may act; this package keeps the file whole."""
