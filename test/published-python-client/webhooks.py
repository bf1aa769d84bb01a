"""Parses webhook bodies with the published Python client's own models (trophy's Webhooks*Payload).

Usage: webhooks.py <file with a JSON array of bodies>. Prints one JSON line per body:
{"type": ..., "model": ..., "error": null or the validation error}. A type the client has no model
for is reported with "model": null.
"""

import json
import sys

import trophy.types as types


def model_of(event_type: str):
    # "leaderboard.rank_changed" -> WebhooksLeaderboardRankChangedPayload
    words = event_type.replace(".", "_").split("_")
    name = "Webhooks" + "".join(word.capitalize() for word in words) + "Payload"
    return name, getattr(types, name, None)


with open(sys.argv[1]) as f:
    bodies = json.load(f)
for body in bodies:
    name, model = model_of(body["type"])
    if model is None:
        print(json.dumps({"type": body["type"], "model": None, "error": None}))
        continue
    try:
        model.model_validate(body) if hasattr(model, "model_validate") else model.parse_obj(body)
        print(json.dumps({"type": body["type"], "model": name, "error": None}))
    except Exception as error:  # a validation error names the fields that do not fit
        print(json.dumps({"type": body["type"], "model": name, "error": str(error)}))
