"""Conformance runner (test/transport/conformance.test.ts): configures the tenant through the Admin services
as a scenario file (test/conformance/scenario.json) says, sends its events through the Python
client, reads the users' state back and prints one JSON document: the responses as protojson and a summary read through the typed messages. The
TypeScript and Go runners print the same document; the test compares them.

    GAMIFICATION_URL=http://localhost:8080 GAMIFICATION_API_KEY=<admin key> GAMIFICATION_TENANT=<tenant> \\
    GAMIFICATION_PROTOCOL=grpc CONFORMANCE_SCENARIO=test/conformance/scenario.json python test/conformance/scenario.py
"""

from __future__ import annotations

import json
import os
import sys

from connectrpc.errors import ConnectError
from google.protobuf.json_format import MessageToDict, ParseDict
from google.protobuf.timestamp_pb2 import Timestamp

import gamification
from gamification.v1.achievement_admin_service_pb2 import CreateAchievementsRequest
from gamification.v1.admin_service_pb2 import CreateMetricsRequest
from gamification.v1.application_service_pb2 import (
    GetUserMetricRequest,
    GetUserStreakRequest,
    ListUserAchievementsRequest,
    TrackMetricEventRequest,
)
from gamification.v1.leaderboard_admin_service_pb2 import CreateLeaderboardsRequest
from gamification.v1.leaderboard_service_pb2 import GetUserLeaderboardRequest
from gamification.v1.points_admin_service_pb2 import CreatePointsSystemsRequest
from gamification.v1.points_service_pb2 import GetUserPointsRequest
from gamification.v1.streak_admin_service_pb2 import UpdateStreakSettingsRequest
from gamification.v1.user_pb2 import UpsertedUser


def protojson(message) -> dict:
    # The proto JSON names (camelCase), as the Go and TypeScript runners print them.
    return MessageToDict(message)


def configure(client: gamification.Client, config: dict) -> dict:
    """Creates the tenant's configuration through the Admin services; returns their answers."""
    metrics = client.admin.create_metrics(ParseDict(config["metrics"], CreateMetricsRequest()))
    if not metrics.created:
        sys.exit(f"conformance: the metric was not created: {metrics.issues}")
    metric_id = metrics.created[0].id

    def request(name: str, message):
        # "$metric" stands for the metric's ID.
        return ParseDict(json.loads(json.dumps(config[name]).replace('"$metric"', json.dumps(metric_id))), message)

    return {
        "metrics": protojson(metrics),
        "achievements": protojson(client.achievements.create_achievements(request("achievements", CreateAchievementsRequest()))),
        "pointsSystems": protojson(client.points.create_points_systems(request("pointsSystems", CreatePointsSystemsRequest()))),
        "leaderboards": protojson(client.leaderboards.create_leaderboards(request("leaderboards", CreateLeaderboardsRequest()))),
        "streakSettings": protojson(client.streaks.update_streak_settings(request("streakSettings", UpdateStreakSettingsRequest()))),
    }


def run(client: gamification.Client, scenario: dict) -> dict:
    document: dict = {"configured": configure(client, scenario["configuration"]), "tracked": [], "users": {}, "summary": {}}
    # The events, in order, then each user's state.
    for event in scenario["events"]:
        timestamp = Timestamp()
        timestamp.FromJsonString(event["timestamp"])
        response = client.application.track_metric_event(
            TrackMetricEventRequest(key=scenario["metric"], user=UpsertedUser(id=event["user"]), value=event["value"], timestamp=timestamp)
        )
        document["tracked"].append(protojson(response))
    for user_id in scenario["users"]:
        metric = client.application.get_user_metric(GetUserMetricRequest(id=user_id, key=scenario["metric"]))
        points = client.points_reads.get_user_points(GetUserPointsRequest(id=user_id, key=scenario["pointsSystem"]))
        streak = client.application.get_user_streak(GetUserStreakRequest(id=user_id))
        achievements = client.application.list_user_achievements(ListUserAchievementsRequest(id=user_id))
        leaderboard = client.leaderboard_reads.get_user_leaderboard(GetUserLeaderboardRequest(id=user_id, key=scenario["leaderboard"]))
        document["users"][user_id] = {
            "metric": protojson(metric),
            "points": protojson(points),
            "streak": protojson(streak),
            "achievements": protojson(achievements),
            "leaderboard": protojson(leaderboard),
        }
        document["summary"][user_id] = {
            "metricTotal": metric.metric.current,
            "pointsTotal": points.points.total,
            "level": points.points.level.key,
            "streakLength": streak.streak.length,
            "achievements": [achievement.key for achievement in achievements.achievements],
            "rank": leaderboard.leaderboard.rank,
            "value": leaderboard.leaderboard.value,
        }
    return document


def main() -> None:
    settings = {name: os.environ.get(name) for name in ("GAMIFICATION_URL", "GAMIFICATION_API_KEY", "GAMIFICATION_TENANT", "CONFORMANCE_SCENARIO")}
    missing = [name for name, value in settings.items() if not value]
    if missing:
        sys.exit(f"conformance: set {', '.join(missing)}")
    protocol = os.environ.get("GAMIFICATION_PROTOCOL") or "connect"
    with open(settings["CONFORMANCE_SCENARIO"], encoding="utf-8") as file:
        scenario = json.load(file)
    try:
        with gamification.Client(settings["GAMIFICATION_URL"], settings["GAMIFICATION_API_KEY"], tenant_id=settings["GAMIFICATION_TENANT"], protocol=protocol) as client:
            document = run(client, scenario)
    except ConnectError as error:
        sys.exit(f"conformance: {error.code.name.lower()}: {error.message}")
    print(json.dumps(document))


if __name__ == "__main__":
    main()
