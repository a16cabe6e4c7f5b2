"""Internal notes: written by the case's staff, listed with author and time, audited, never edited."""
from __future__ import annotations


def test_notes_are_added_listed_and_audited(api, case):
    note = api.post(f"/api/v1/instances/{case['id']}/notes", "clerk", {"text": "  Llamar al solicitante  "},
                    expect=201)
    assert note["author"] == "clerk" and note["text"] == "Llamar al solicitante" and note["at"]
    api.post(f"/api/v1/instances/{case['id']}/notes", "boss", {"text": "Visto"}, expect=201)
    listed = api.get(f"/api/v1/instances/{case['id']}/notes", "clerk")
    assert [(n["author"], n["text"]) for n in listed] == [("clerk", "Llamar al solicitante"), ("boss", "Visto")]
    history = api.get(f"/api/v1/instances/{case['id']}/history", "clerk")
    assert [e["data"]["note_id"] for e in history if e["type"] == "note_added"] == [n["id"] for n in listed]


def test_note_refusals(api, case):
    api.post(f"/api/v1/instances/{case['id']}/notes", "clerk", {"text": "   "}, expect=422)
    api.post(f"/api/v1/instances/{case['id']}/notes", "clerk", {}, expect=422)
    api.post(f"/api/v1/instances/{case['id']}/notes", "nobody", {"text": "hola"}, expect=403)
    api.call("GET", f"/api/v1/instances/{case['id']}/notes", "nobody", 403)
    api.post("/api/v1/instances/999999/notes", "clerk", {"text": "hola"}, expect=404)
    assert api.get(f"/api/v1/instances/{case['id']}/notes", "clerk") == []


def test_there_is_no_route_to_edit_or_delete_a_note(api, case):
    note = api.post(f"/api/v1/instances/{case['id']}/notes", "clerk", {"text": "hola"}, expect=201)
    for method in ("PUT", "PATCH", "DELETE"):
        assert api.call(method, f"/api/v1/instances/{case['id']}/notes/{note['id']}", "boss").status_code in (404, 405)
    assert api.call("DELETE", f"/api/v1/instances/{case['id']}/notes", "boss").status_code == 405
