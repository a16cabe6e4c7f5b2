"""Migrating running cases from one version of a process to another (API.md §Running cases).

A run is many transactions, one per case (`migrate_cases`), so a case that cannot move, or fails,
holds back none of the others. Each case is opened, planned against the target version with
`engine.runtime.migration.plan` and, unless blocked or a dry run, moved with `apply`; the preview
(`dry_run`) is the same plan, rolled back, so it cannot differ from what the run does.
"""
from __future__ import annotations

import copy

from sqlalchemy import select, update

from engine.definitions import form_files, forms, repository
from engine.errors import EngineError, NotFound, ValidationFailed
from engine.kernel import access
from engine.persistence.models import ProcessInstance
from engine.runtime import migration, projections
from engine.runtime.case import Case

INSTANCE = ProcessInstance.__table__
MOVABLE = ("active", "error")


class _DryRun(Exception):
    """Raised to roll back a dry run's transaction with its answer."""

    def __init__(self, answer):
        self.answer = answer


def _check_mapping(mapping) -> dict:
    if mapping is None:
        return {}
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) and k and v
                                                for k, v in mapping.items()):
        raise ValidationFailed("the mapping is old element id → new element id",
                               {"mapping": ["must be an object of element ids"]})
    return mapping


def check_migration(ctx, key: str, from_version: int, to_version: int, instance_ids, mapping) -> list[int]:
    """Who may migrate, between which versions, and which cases the run covers (ids, oldest first)."""
    access.require_process_owner(ctx.actor, "migrate running cases")
    for name, value in (("from_version", from_version), ("to_version", to_version)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValidationFailed("versions are positive whole numbers", {name: ["must be a version number"]})
    if from_version == to_version:
        raise ValidationFailed("the target is the version the cases run", {"to_version": ["same as from_version"]})
    _check_mapping(mapping)
    source = repository.version_id(ctx.conn, key, from_version)
    repository.version_id(ctx.conn, key, to_version)
    if instance_ids is not None:
        if not isinstance(instance_ids, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                         for i in instance_ids):
            raise ValidationFailed("instance_ids is a list of case ids", {"instance_ids": ["must be case ids"]})
        return sorted(set(instance_ids))
    return list(ctx.conn.execute(select(INSTANCE.c.id).where(
        INSTANCE.c.definition_id == source, INSTANCE.c.status.in_(MOVABLE)).order_by(INSTANCE.c.id)).scalars())


def _form_problems(case: Case, target, moving: migration.Plan) -> list[str]:
    """Open user tasks whose form in the target refuses what the case already holds for it."""
    problems = []
    for task, spec in moving.specs.items():
        if not task.has_state(migration.TaskState.READY) or not form_files.has_task_form(target.files, spec.bpmn_id):
            continue
        schema = form_files.task_form(target.files, spec.bpmn_id).schema
        if not isinstance(schema, dict):
            continue
        held = {name: task.data[name] for name in schema.get("properties", {}) if name in task.data}
        missing = [name for name in schema.get("required", []) if name not in task.data
                   and schema.get("properties", {}).get(name, {}).get("readOnly")]
        if missing:
            problems.append(f"El formulario de «{spec.bpmn_name or spec.bpmn_id}» en la versión {target.version} "
                            f"exige {', '.join(missing)}, que el caso no tiene y nadie puede escribir.")
        loose = copy.deepcopy(schema)
        loose.pop("required", None)
        try:
            forms.validate(loose, held)
        except ValidationFailed as exc:
            fields = ", ".join(sorted(exc.errors)) if getattr(exc, "errors", None) else "sus datos"
            problems.append(f"El formulario de «{spec.bpmn_name or spec.bpmn_id}» en la versión {target.version} "
                            f"no acepta lo que el caso ya tiene en {fields}.")
    return problems


def migrate_case(ctx, key: str, instance_id: int, from_version: int, to_version: int,
                 mapping: dict | None = None, dry_run: bool = False, reason: str | None = None,
                 diffs: dict | None = None) -> dict:
    """One case: `{"id", "migrated": bool, "reason"?}`. A dry run rolls back (raises `_DryRun`)."""
    access.require_process_owner(ctx.actor, "migrate running cases")
    mapping = _check_mapping(mapping)
    source = repository.info(ctx.versions, ctx.conn, repository.version_id(ctx.conn, key, from_version))
    target = repository.info(ctx.versions, ctx.conn, repository.version_id(ctx.conn, key, to_version))
    try:
        case = Case.open(ctx, instance_id)
    except NotFound:
        return {"id": instance_id, "migrated": False, "reason": "No existe ese caso."}
    record = case.instance
    if record.definition_id != source.id:
        return {"id": instance_id, "migrated": False,
                "reason": f"El caso {record.case_number} no corre la versión {from_version} de {key}."}
    if record.status not in MOVABLE:
        return {"id": instance_id, "migrated": False,
                "reason": f"El caso {record.case_number} está cerrado ({record.status})."}
    spec, subprocess_specs = repository.specs_for(ctx.versions, ctx.conn, target)
    moving = migration.plan(case.workflow, spec, subprocess_specs, mapping, str(to_version), diffs)
    blocked = moving.blocked + _form_problems(case, target, moving)
    if blocked:
        return {"id": instance_id, "migrated": False, "reason": " ".join(blocked)}
    migration.apply(case.workflow, spec, subprocess_specs, moving)
    case.definition = target
    record.definition_id = target.id
    ctx.conn.execute(update(INSTANCE).where(INSTANCE.c.id == record.id).values(definition_id=target.id))
    ctx.audit("case_migrated", instance_id=record.id, message=reason,
              data={"from_version": from_version, "to_version": to_version, "mapping": mapping,
                    "elements": sorted({s.bpmn_id for t, s in moving.specs.items()
                                        if t.has_state(migration._LIVE) and s.bpmn_id})})
    # What the new version does next (a step now automatic, a timer already due) runs now.
    case.advance()
    case.close()
    projections.relabel(ctx, case)
    answer = {"id": instance_id, "migrated": True}
    if dry_run:
        raise _DryRun(answer)
    return answer


def migrate_cases(engine, actor, key: str, from_version: int, to_version: int, instance_ids=None,
                  dry_run: bool = False, mapping: dict | None = None, reason: str | None = None,
                  progress=None) -> dict:
    """`{"migrated": [ids], "blocked": [{"id", "reason"}]}` (with `dry_run`, what a run would do)."""
    ids = engine.execute(check_migration, actor, key, from_version, to_version, instance_ids, mapping)
    migrated, blocked = [], []
    diffs: dict = {}  # the versions' spec diff, computed once for the whole run
    for done, instance_id in enumerate(ids, start=1):
        try:
            result = engine.execute(migrate_case, actor, key, instance_id, from_version, to_version,
                                    mapping, dry_run, reason, diffs)
        except _DryRun as preview:
            result = preview.answer
        except EngineError as exc:
            result = {"id": instance_id, "migrated": False, "reason": str(exc)}
        if result["migrated"]:
            migrated.append(instance_id)
        else:
            blocked.append({"id": instance_id, "reason": result["reason"]})
        if progress is not None:
            progress(done, len(ids))
    return {"migrated": migrated, "blocked": blocked}
