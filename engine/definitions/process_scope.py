"""Deploy refusals that keep a deployed process inside what its key may do (issue 15, item 7).

A lane is a role whose staff act on the case; a built-in role (admin, process_owner, supervisor)
is a power over the whole engine, never a lane: a process owner who names a lane `admin` would
otherwise write a diagram whose tasks, messages and starts act with the admins' standing.
A script may call a procedure's registry helpers only when the deployed key belongs to that
procedure (`HelperFamily`): the scripting layer answers which calls a key may not make.
"""
from __future__ import annotations


def refuse_out_of_scope(key: str, info: dict, builtin_roles, script_problems, fail) -> None:
    """`fail(element id, "CODE: detail")` for every built-in role (`builtin_roles`, the identity's own
    list, passed in by the deploy command) used as a lane and every helper the process `key` may not
    call (`script_problems(source, mode, process_key=key)`)."""
    refusals = [(lane["id"], f"LANE_BUILTIN_ROLE: lane {lane['name']!r} is a built-in role; a lane names the "
                             "staff role that does its tasks")
                for proc in info["processes"].values() for lane in proc["lanes"] if lane["name"] in builtin_roles]
    for script in info["scripts"]:
        for problem in script_problems(script["source"], script["mode"], process_key=key):
            code, _, detail = problem.partition(": ")
            refusals.append((script["element_id"], f"{code} ({script['kind']}): {detail}"))
    for where, message in refusals:
        fail(where, message)
