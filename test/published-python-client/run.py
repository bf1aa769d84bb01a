"""The reference's published Python client, `trophy` 1.27.0, used as a customer would against this server.

Run by test/clients/published-python-client.test.ts with the venv of scripts/python-client-venv.sh:

    python run.py BASE_URL API_KEY TENANT_ID

Calls every public method of the sync client once, in an order that builds what later calls need
(a metric before the achievement that counts it, a user before its reads), and prints one JSON line
per call: {"method": ..., "error": null | "...", "result": <the answer as the client parsed it, in
its JSON names>}. A method "works" when the client sent the request, got a 2xx answer and parsed it
with its own models; the vitest test checks the key values. Nothing here decides pass or fail.
"""

import datetime as dt
import json
import sys
import traceback

import trophy
import trophy.core.api_error
import trophy.core.parse_error
from trophy import (
    BatchMetricEvent,
    BatchMetricEventUser,
    CreateAchievementRequestItem,
    CreateAchievementRequestItemEventAttributesItem,
    CreateAchievementRequestItemUserAttributesItem,
    CreateApplicationKeyRequestItem,
    CreateAttributeRequestItem,
    CreateLeaderboardRequestItem,
    CreateLeaderboardRequestItemUserAttributesItem,
    CreateMetricRequestItem,
    CreatePointsBoostRequestItem,
    CreatePointsLevelRequestItem,
    CreatePointsSystemRequestItem,
    CreatePointsTriggerRequestItem,
    CreatePointsTriggerRequestItemEventAttributesItem,
    CreatePointsTriggerRequestItemUserAttributesItem,
    CreateTenantRequestItem,
    NotificationPreferences,
    PatchPointsBoostsRequestItem,
    PatchPointsLevelsRequestItem,
    PatchPointsTriggersRequestItem,
    StreakSettingsMetric,
    TrophyApi,
    UpdateAchievementRequestItem,
    UpdateAdminSettingsExperimentation,
    UpdateAttributeRequestItem,
    UpdateLeaderboardRequestItem,
    UpdateMetricRequestItem,
    UpdatePointsSystemRequestItem,
    UpdateStreakSettingsFreezes,
    UpdateTenantRequestItem,
    UpsertedUser,
)
from trophy.admin.streaks import ResetStreaksRequestUsersItem, RestoreStreaksRequestUsersItem
from trophy.admin.streaks.freezes import CreateStreakFreezesRequestFreezesItem
from trophy.admin.streaks.pauses import CreateStreakPausesRequestPausesItem
from trophy.core.jsonable_encoder import jsonable_encoder
from trophy.environment import TrophyApiEnvironment

base_url, api_key, tenant_id = sys.argv[1:4]
client = TrophyApi(
    environment=TrophyApiEnvironment(api=f"{base_url}/v1", admin=f"{base_url}/admin/v1"),
    tenant_id=tenant_id,
    api_key=api_key,
    max_retries=0,
    timeout=30,
)
# The Admin API's tenant resources are not scoped by a tenant: a second client without one.
global_client = TrophyApi(
    environment=TrophyApiEnvironment(api=f"{base_url}/v1", admin=f"{base_url}/admin/v1"),
    api_key=api_key,
    max_retries=0,
    timeout=30,
)


def day(offset: int) -> str:
    return (dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=offset)).isoformat()


def call(method: str, run):
    """Calls one method; prints its outcome; returns the parsed answer (None when it failed)."""
    try:
        result = run()
        print(json.dumps({"method": method, "error": None, "result": jsonable_encoder(result)}), flush=True)
        return result
    except Exception as error:  # noqa: BLE001 - every failure counts the method as not working
        if isinstance(error, trophy.core.api_error.ApiError):
            message = f"HTTP {error.status_code}: {json.dumps(error.body)}"
        elif isinstance(error, trophy.core.parse_error.ParsingError):
            # The pydantic errors, without the body they quote: "<field path>: <error type>" each.
            cause = error.cause
            details = [f"{'.'.join(str(p) for p in e['loc'])}: {e['type']}" for e in cause.errors()] if hasattr(cause, "errors") else [str(cause)]
            message = f"the client could not parse the answer (HTTP {error.status_code}): " + "; ".join(details)
        else:
            message = "".join(traceback.format_exception_only(type(error), error)).strip()
        print(json.dumps({"method": method, "error": message[:2000], "result": None}), flush=True)
        return None


def first(items, default=None):
    return items[0] if items else default


admin = client.admin
today, yesterday = day(0), day(-1)
week_ago = day(-7)

# --- Admin API: configuration -------------------------------------------------------------------

# The test set up the metric "words" and daily streaks on it (the client's PATCH form of streak
# settings is not served yet): its id comes from the list.
created = call(
    "admin.metrics.create",
    lambda: admin.metrics.create(
        request=[
            CreateMetricRequestItem(name="Revenue", key="revenue", unit_type="currency", units="USD"),
            CreateMetricRequestItem(name="Scratch", key="scratch"),
        ]
    ),
)
metrics = {m.key: m.id for m in (created.created if created else [])}
revenue_id, scratch_id = metrics.get("revenue", "missing"), metrics.get("scratch", "missing")
listed = call("admin.metrics.list", lambda: admin.metrics.list(limit=10, skip=0))
words_id = first([m.id for m in (listed or []) if m.key == "words"], "missing")
call("admin.metrics.get", lambda: admin.metrics.get(id=words_id))
call("admin.metrics.update", lambda: admin.metrics.update(request=[UpdateMetricRequestItem(id=revenue_id, name="Revenue (EUR)", units="EUR")]))

created = call(
    "admin.attributes.create",
    lambda: admin.attributes.create(
        request=[
            CreateAttributeRequestItem(name="Plan", key="plan", type="user"),
            CreateAttributeRequestItem(name="Device", key="device", type="event"),
            CreateAttributeRequestItem(name="Scratch", key="scratch", type="user"),
        ]
    ),
)
attributes = {a.key: a.id for a in (created.created if created else [])}
plan_id, device_id, scratch_attribute_id = attributes.get("plan", "missing"), attributes.get("device", "missing"), attributes.get("scratch", "missing")
call("admin.attributes.list", lambda: admin.attributes.list(limit=10, skip=0))
call("admin.attributes.get", lambda: admin.attributes.get(id=plan_id))
call("admin.attributes.update", lambda: admin.attributes.update(request=[UpdateAttributeRequestItem(id=plan_id, name="Subscription plan")]))

created = call(
    "admin.achievements.create",
    lambda: admin.achievements.create(
        request=[
            CreateAchievementRequestItem(
                name="Wordsmith",
                key="words-500",
                trigger="metric",
                metric_id=words_id,
                metric_value=500,
                status="active",
                user_attributes=[CreateAchievementRequestItemUserAttributesItem(attribute_id=plan_id, attribute_value="pro")],
                event_attributes=[CreateAchievementRequestItemEventAttributesItem(attribute_id=device_id, attribute_value="ios")],
            ),
            CreateAchievementRequestItem(name="Onboarded", key="finish-onboarding", trigger="api", status="active"),
            CreateAchievementRequestItem(name="Scratch", key="scratch", trigger="api", status="inactive"),
        ]
    ),
)
achievements = {a.key: a.id for a in (created.created if created else [])}
wordsmith_id, scratch_achievement_id = achievements.get("words-500", "missing"), achievements.get("scratch", "missing")
call("admin.achievements.list", lambda: admin.achievements.list(limit=10, skip=0))
call("admin.achievements.get", lambda: admin.achievements.get(id=wordsmith_id))
call("admin.achievements.update", lambda: admin.achievements.update(request=[UpdateAchievementRequestItem(id=wordsmith_id, description="Write 500 words")]))

call(
    "admin.streaks.settings.update",
    lambda: admin.streaks.settings.update(
        frequency="daily",
        metrics=[StreakSettingsMetric(key="words", threshold=1)],
        freezes=UpdateStreakSettingsFreezes(start_count=1, max_count=3),
    ),
)
call("admin.streaks.settings.get", lambda: admin.streaks.settings.get())

created = call(
    "admin.points.systems.create",
    lambda: admin.points.systems.create(
        request=[
            CreatePointsSystemRequestItem(
                name="XP",
                key="xp",
                description="Experience points",
                levels=[CreatePointsLevelRequestItem(name="Bronze", key="bronze", points=0)],
            ),
            CreatePointsSystemRequestItem(
                name="Scratch",
                key="scratch",
                max_points=1000,
                triggers=[CreatePointsTriggerRequestItem(type="user_creation", points=5, status="active")],
                boosts=[CreatePointsBoostRequestItem(name="Launch week", start=yesterday, end=day(6), multiplier=1.5, rounding="up")],
            ),
        ]
    ),
)
systems = {s.key: s.id for s in (created.created if created else [])}
xp_id, scratch_system_id = systems.get("xp", "missing"), systems.get("scratch", "missing")
call("admin.points.systems.list", lambda: admin.points.systems.list(limit=10, skip=0))
call("admin.points.systems.get", lambda: admin.points.systems.get(id=xp_id))
call("admin.points.systems.update", lambda: admin.points.systems.update(request=[UpdatePointsSystemRequestItem(id=xp_id, description="Points for writing")]))

created = call(
    "admin.points.triggers.create",
    lambda: admin.points.triggers.create(
        system_id=xp_id,
        request=[
            CreatePointsTriggerRequestItem(
                type="metric",
                points=10,
                metric_id=words_id,
                metric_threshold=100,
                status="active",
                user_attributes=[CreatePointsTriggerRequestItemUserAttributesItem(attribute_id=plan_id, attribute_value="pro")],
                event_attributes=[CreatePointsTriggerRequestItemEventAttributesItem(attribute_id=device_id, attribute_value="ios")],
            ),
            CreatePointsTriggerRequestItem(type="achievement", points=5, achievement_id=wordsmith_id, status="inactive"),
        ],
    ),
)
trigger_ids = [t.id for t in (created.created if created else [])]
metric_trigger_id, achievement_trigger_id = (trigger_ids + ["missing", "missing"])[:2]
call("admin.points.triggers.list", lambda: admin.points.triggers.list(system_id=xp_id, limit=10, skip=0))
call("admin.points.triggers.get", lambda: admin.points.triggers.get(system_id=xp_id, id=metric_trigger_id))
call("admin.points.triggers.update", lambda: admin.points.triggers.update(system_id=xp_id, request=[PatchPointsTriggersRequestItem(id=achievement_trigger_id, points=7)]))

created = call(
    "admin.points.levels.create",
    lambda: admin.points.levels.create(
        system_id=xp_id,
        request=[
            CreatePointsLevelRequestItem(name="Silver", key="silver", points=50),
            CreatePointsLevelRequestItem(name="Gold", key="gold", points=5000),
        ],
    ),
)
levels = {lv.key: lv.id for lv in (created.created if created else [])}
silver_id, gold_id = levels.get("silver", "missing"), levels.get("gold", "missing")
call("admin.points.levels.list", lambda: admin.points.levels.list(system_id=xp_id, limit=10, skip=0))
call("admin.points.levels.get", lambda: admin.points.levels.get(system_id=xp_id, id=silver_id))
call("admin.points.levels.update", lambda: admin.points.levels.update(system_id=xp_id, request=[PatchPointsLevelsRequestItem(id=gold_id, description="The very best")]))

created = call(
    "admin.leaderboards.create",
    lambda: admin.leaderboards.create(
        request=[
            CreateLeaderboardRequestItem(
                name="Most words",
                key="words-board",
                rank_by="metric",
                metric_id=words_id,
                status="active",
                start=yesterday,
                run_unit="day",
                run_interval=7,
                max_participants=100,
            ),
            CreateLeaderboardRequestItem(
                name="Pro XP",
                key="scratch-board",
                rank_by="points",
                points_system_id=xp_id,
                status="inactive",
                start=yesterday,
                user_attributes=[CreateLeaderboardRequestItemUserAttributesItem(attribute_id=plan_id, attribute_value="pro")],
            ),
        ]
    ),
)
boards = {b.key: b.id for b in (created.created if created else [])}
words_board_id, scratch_board_id = boards.get("words-board", "missing"), boards.get("scratch-board", "missing")
call("admin.leaderboards.list", lambda: admin.leaderboards.list(limit=10, skip=0))
call("admin.leaderboards.get", lambda: admin.leaderboards.get(id=words_board_id))
call("admin.leaderboards.update", lambda: admin.leaderboards.update(request=[UpdateLeaderboardRequestItem(id=words_board_id, description="Ranked by words written")]))

# --- Application API ----------------------------------------------------------------------------

call(
    "metrics.event",
    lambda: client.metrics.event(
        key="words",
        idempotency_key="ana-first",
        user=UpsertedUser(id="ana", email="ana@example.com", tz="Europe/London", attributes={"plan": "pro"}),
        value=750,
        attributes={"device": "ios"},
    ),
)
call("users.create", lambda: client.users.create(id="bo", tz="America/New_York", sign_up_date=week_ago, device_tokens=["bo-phone"], subscribe_to_emails=True, attributes={"plan": "free"}))
call("users.get", lambda: client.users.get(id="ana"))
call("users.identify", lambda: client.users.identify(id="cy", email="cy@example.com", tz="Asia/Tokyo", sign_up_date="2024-02-29"))
call("users.update", lambda: client.users.update(id="ana", name="Ana", subscribe_to_emails=False))
call("achievements.complete", lambda: client.achievements.complete(key="finish-onboarding", user=UpsertedUser(id="bo")))
# Boosts for one user need the user to exist.
created = call(
    "admin.points.boosts.create",
    lambda: admin.points.boosts.create(
        system_id=xp_id,
        request=[
            CreatePointsBoostRequestItem(user_id="bo", name="Welcome week", start=yesterday, end=day(6), multiplier=2),
            CreatePointsBoostRequestItem(user_id="bo", name="Scratch", start=day(30), multiplier=3),
        ],
    ),
)
boost_ids = [b.id for b in (created.created if created else [])]
welcome_boost_id, scratch_boost_id = (boost_ids + ["missing", "missing"])[:2]
call("admin.points.boosts.list", lambda: admin.points.boosts.list(system_id=xp_id, limit=10, skip=0))
call("admin.points.boosts.get", lambda: admin.points.boosts.get(system_id=xp_id, id=welcome_boost_id))
call("admin.points.boosts.update", lambda: admin.points.boosts.update(system_id=xp_id, request=[PatchPointsBoostsRequestItem(id=welcome_boost_id, name="Welcome fortnight", end=day(13))]))

call("achievements.all_", lambda: client.achievements.all_(user_attributes="plan:free"))
call("users.all_metrics", lambda: client.users.all_metrics(id="ana"))
call("users.single_metric", lambda: client.users.single_metric(id="ana", key="words"))
call("users.metric_event_summary", lambda: client.users.metric_event_summary(id="ana", key="words", aggregation="daily", start_date=week_ago, end_date=today))
call("users.achievements", lambda: client.users.achievements(id="ana", include_incomplete="true"))
call("users.streak", lambda: client.users.streak(id="ana", history_periods=3))
call("users.points", lambda: client.users.points(id="ana", key="xp", awards=5))
call("users.points_boosts", lambda: client.users.points_boosts(id="bo", key="xp"))
call("users.points_event_summary", lambda: client.users.points_event_summary(id="ana", key="xp", aggregation="daily", start_date=week_ago, end_date=today))
call("users.leaderboard", lambda: client.users.leaderboard(id="ana", key="words-board", run=today, num_events=5))
call("users.get_preferences", lambda: client.users.get_preferences(id="ana"))
call("users.update_preferences", lambda: client.users.update_preferences(id="ana", notifications=NotificationPreferences(streak_reminder=["email"])))
call("users.wrapped", lambda: client.users.wrapped(id="ana", year=int(today[:4])))
call("streaks.list", lambda: client.streaks.list(user_ids=["ana", "bo"]))
call("points.summary", lambda: client.points.summary(key="xp"))
call("points.system", lambda: client.points.system(key="xp"))
call("points.boosts", lambda: client.points.boosts(key="xp", include_finished=True))
call("points.levels", lambda: client.points.levels(key="xp"))
call("points.level_summary", lambda: client.points.level_summary(key="xp"))
call("leaderboards.all_", lambda: client.leaderboards.all_(include_finished=True))
call("leaderboards.get", lambda: client.leaderboards.get(key="words-board", offset=0, limit=10, run=today, user_id="ana"))

# --- Admin API: users' state ----------------------------------------------------------------------

call(
    "admin.metrics.batch_events",
    lambda: admin.metrics.batch_events(
        request=[
            BatchMetricEvent(key="words", user=BatchMetricEventUser(id="bo", tz="America/New_York"), value=120, idempotency_key="bo-import-1"),
            BatchMetricEvent(key="words", user=BatchMetricEventUser(id="cy"), value=40),
            BatchMetricEvent(key="revenue", user=BatchMetricEventUser(id="cy"), value=9.99, attributes={"device": "web"}),
        ]
    ),
)
call("admin.streaks.freezes.create", lambda: admin.streaks.freezes.create(freezes=[CreateStreakFreezesRequestFreezesItem(user_id="ana"), CreateStreakFreezesRequestFreezesItem(user_id="nobody-yet")]))
call("admin.streaks.restore", lambda: admin.streaks.restore(users=[RestoreStreaksRequestUsersItem(id="ana"), RestoreStreaksRequestUsersItem(id="nobody-yet")]))
created = call("admin.streaks.pauses.create", lambda: admin.streaks.pauses.create(pauses=[CreateStreakPausesRequestPausesItem(user_id="cy", start=day(10), end=day(12))]))
pause_ids = [p.id for p in (created.created if created else [])]
call("admin.streaks.pauses.delete", lambda: admin.streaks.pauses.delete(ids=pause_ids or ["missing"]))
call("admin.streaks.reset", lambda: admin.streaks.reset(users=[ResetStreaksRequestUsersItem(id="cy")]))
created = call("admin.application_api_keys.create", lambda: admin.application_api_keys.create(request=[CreateApplicationKeyRequestItem(user_id="ana")]))
key_ids = [k.id for k in (created.created if created else [])]
call("admin.application_api_keys.delete", lambda: admin.application_api_keys.delete(ids=key_ids or ["missing"]))
call("admin.environments.list", lambda: admin.environments.list())
call("admin.settings.get", lambda: admin.settings.get())
call("admin.settings.update", lambda: admin.settings.update(experimentation=UpdateAdminSettingsExperimentation(control_ratio=10, user_activation_window=14)))

# --- Admin API: removals, then tenants ------------------------------------------------------------

call("admin.points.boosts.delete", lambda: admin.points.boosts.delete(system_id=xp_id, ids=[scratch_boost_id]))
call("admin.points.levels.delete", lambda: admin.points.levels.delete(system_id=xp_id, ids=[gold_id]))
call("admin.points.triggers.delete", lambda: admin.points.triggers.delete(system_id=xp_id, ids=[achievement_trigger_id]))
call("admin.leaderboards.delete", lambda: admin.leaderboards.delete(ids=[scratch_board_id]))
call("admin.points.systems.delete", lambda: admin.points.systems.delete(ids=[scratch_system_id]))
call("admin.achievements.delete", lambda: admin.achievements.delete(ids=[scratch_achievement_id]))
call("admin.attributes.delete", lambda: admin.attributes.delete(ids=[scratch_attribute_id]))
call("admin.metrics.delete", lambda: admin.metrics.delete(ids=[scratch_id]))

tenants = global_client.admin.tenants
created = call("admin.tenants.create", lambda: tenants.create(request=[CreateTenantRequestItem(customer_id="globex", name="Globex Inc")]))
globex_id = first([t.id for t in (created.created if created else [])], "missing")
call("admin.tenants.list", lambda: tenants.list(limit=10, skip=0))
call("admin.tenants.get", lambda: tenants.get(id=globex_id))
call("admin.tenants.update", lambda: tenants.update(request=[UpdateTenantRequestItem(id=globex_id, name="Globex Corporation")]))
call("admin.tenants.delete", lambda: tenants.delete(ids=[globex_id]))
