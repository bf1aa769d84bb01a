import datetime

from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import achievement_pb2 as _achievement_pb2
from gamification.v1 import leaderboard_pb2 as _leaderboard_pb2
from gamification.v1 import options_pb2 as _options_pb2
from gamification.v1 import points_pb2 as _points_pb2
from gamification.v1 import streak_pb2 as _streak_pb2
from gamification.v1 import user_pb2 as _user_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SummaryAggregation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUMMARY_AGGREGATION_UNSPECIFIED: _ClassVar[SummaryAggregation]
    SUMMARY_AGGREGATION_DAILY: _ClassVar[SummaryAggregation]
    SUMMARY_AGGREGATION_WEEKLY: _ClassVar[SummaryAggregation]
    SUMMARY_AGGREGATION_MONTHLY: _ClassVar[SummaryAggregation]
SUMMARY_AGGREGATION_UNSPECIFIED: SummaryAggregation
SUMMARY_AGGREGATION_DAILY: SummaryAggregation
SUMMARY_AGGREGATION_WEEKLY: SummaryAggregation
SUMMARY_AGGREGATION_MONTHLY: SummaryAggregation

class TrackMetricEventRequest(_message.Message):
    __slots__ = ("key", "user", "value", "attributes", "idempotency_key", "timestamp")
    class AttributesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    KEY_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    key: str
    user: _user_pb2.UpsertedUser
    value: float
    attributes: _containers.ScalarMap[str, str]
    idempotency_key: str
    timestamp: _timestamp_pb2.Timestamp
    def __init__(self, key: _Optional[str] = ..., user: _Optional[_Union[_user_pb2.UpsertedUser, _Mapping]] = ..., value: _Optional[float] = ..., attributes: _Optional[_Mapping[str, str]] = ..., idempotency_key: _Optional[str] = ..., timestamp: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TrackMetricEventResponse(_message.Message):
    __slots__ = ("metric_id", "event_id", "total", "achievements", "current_streak", "points", "leaderboards", "idempotent_replayed", "idempotency_key")
    class PointsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _points_pb2.PointsChange
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_points_pb2.PointsChange, _Mapping]] = ...) -> None: ...
    class LeaderboardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _leaderboard_pb2.LeaderboardChange
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_leaderboard_pb2.LeaderboardChange, _Mapping]] = ...) -> None: ...
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_STREAK_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENT_REPLAYED_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    metric_id: str
    event_id: str
    total: float
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    current_streak: _streak_pb2.Streak
    points: _containers.MessageMap[str, _points_pb2.PointsChange]
    leaderboards: _containers.MessageMap[str, _leaderboard_pb2.LeaderboardChange]
    idempotent_replayed: bool
    idempotency_key: str
    def __init__(self, metric_id: _Optional[str] = ..., event_id: _Optional[str] = ..., total: _Optional[float] = ..., achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ..., current_streak: _Optional[_Union[_streak_pb2.Streak, _Mapping]] = ..., points: _Optional[_Mapping[str, _points_pb2.PointsChange]] = ..., leaderboards: _Optional[_Mapping[str, _leaderboard_pb2.LeaderboardChange]] = ..., idempotent_replayed: bool = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class GetUserRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.User
    def __init__(self, user: _Optional[_Union[_user_pb2.User, _Mapping]] = ...) -> None: ...

class UserFields(_message.Message):
    __slots__ = ("email", "tz", "name", "device_tokens", "subscribe_to_emails", "attributes")
    class AttributesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    TZ_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEVICE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBE_TO_EMAILS_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    email: str
    tz: str
    name: str
    device_tokens: _containers.RepeatedScalarFieldContainer[str]
    subscribe_to_emails: bool
    attributes: _containers.ScalarMap[str, str]
    def __init__(self, email: _Optional[str] = ..., tz: _Optional[str] = ..., name: _Optional[str] = ..., device_tokens: _Optional[_Iterable[str]] = ..., subscribe_to_emails: bool = ..., attributes: _Optional[_Mapping[str, str]] = ...) -> None: ...

class CreateUserRequest(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.UpsertedUser
    def __init__(self, user: _Optional[_Union[_user_pb2.UpsertedUser, _Mapping]] = ...) -> None: ...

class CreateUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.User
    def __init__(self, user: _Optional[_Union[_user_pb2.User, _Mapping]] = ...) -> None: ...

class IdentifyUserRequest(_message.Message):
    __slots__ = ("id", "user")
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    id: str
    user: UserFields
    def __init__(self, id: _Optional[str] = ..., user: _Optional[_Union[UserFields, _Mapping]] = ...) -> None: ...

class IdentifyUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.User
    def __init__(self, user: _Optional[_Union[_user_pb2.User, _Mapping]] = ...) -> None: ...

class UpdateUserRequest(_message.Message):
    __slots__ = ("id", "user")
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    id: str
    user: UserFields
    def __init__(self, id: _Optional[str] = ..., user: _Optional[_Union[UserFields, _Mapping]] = ...) -> None: ...

class UpdateUserResponse(_message.Message):
    __slots__ = ("user",)
    USER_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.User
    def __init__(self, user: _Optional[_Union[_user_pb2.User, _Mapping]] = ...) -> None: ...

class UserMetric(_message.Message):
    __slots__ = ("id", "key", "name", "current", "achievements", "status")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    name: str
    current: float
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    status: str
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., name: _Optional[str] = ..., current: _Optional[float] = ..., achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ..., status: _Optional[str] = ...) -> None: ...

class ListUserMetricsRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class ListUserMetricsResponse(_message.Message):
    __slots__ = ("metrics",)
    METRICS_FIELD_NUMBER: _ClassVar[int]
    metrics: _containers.RepeatedCompositeFieldContainer[UserMetric]
    def __init__(self, metrics: _Optional[_Iterable[_Union[UserMetric, _Mapping]]] = ...) -> None: ...

class GetUserMetricRequest(_message.Message):
    __slots__ = ("id", "key")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class GetUserMetricResponse(_message.Message):
    __slots__ = ("metric",)
    METRIC_FIELD_NUMBER: _ClassVar[int]
    metric: UserMetric
    def __init__(self, metric: _Optional[_Union[UserMetric, _Mapping]] = ...) -> None: ...

class GetUserMetricEventSummaryRequest(_message.Message):
    __slots__ = ("id", "key", "aggregation", "start_date", "end_date")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    AGGREGATION_FIELD_NUMBER: _ClassVar[int]
    START_DATE_FIELD_NUMBER: _ClassVar[int]
    END_DATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    aggregation: SummaryAggregation
    start_date: str
    end_date: str
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., aggregation: _Optional[_Union[SummaryAggregation, str]] = ..., start_date: _Optional[str] = ..., end_date: _Optional[str] = ...) -> None: ...

class SummaryPeriod(_message.Message):
    __slots__ = ("date", "total", "change")
    DATE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    CHANGE_FIELD_NUMBER: _ClassVar[int]
    date: str
    total: float
    change: float
    def __init__(self, date: _Optional[str] = ..., total: _Optional[float] = ..., change: _Optional[float] = ...) -> None: ...

class GetUserMetricEventSummaryResponse(_message.Message):
    __slots__ = ("periods",)
    PERIODS_FIELD_NUMBER: _ClassVar[int]
    periods: _containers.RepeatedCompositeFieldContainer[SummaryPeriod]
    def __init__(self, periods: _Optional[_Iterable[_Union[SummaryPeriod, _Mapping]]] = ...) -> None: ...

class CompleteAchievementRequest(_message.Message):
    __slots__ = ("key", "user")
    KEY_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    key: str
    user: _user_pb2.UpsertedUser
    def __init__(self, key: _Optional[str] = ..., user: _Optional[_Union[_user_pb2.UpsertedUser, _Mapping]] = ...) -> None: ...

class CompleteAchievementResponse(_message.Message):
    __slots__ = ("completion_id", "achievement", "points")
    class PointsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _points_pb2.PointsChange
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_points_pb2.PointsChange, _Mapping]] = ...) -> None: ...
    COMPLETION_ID_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    completion_id: str
    achievement: _achievement_pb2.Achievement
    points: _containers.MessageMap[str, _points_pb2.PointsChange]
    def __init__(self, completion_id: _Optional[str] = ..., achievement: _Optional[_Union[_achievement_pb2.Achievement, _Mapping]] = ..., points: _Optional[_Mapping[str, _points_pb2.PointsChange]] = ...) -> None: ...

class ListUserAchievementsRequest(_message.Message):
    __slots__ = ("id", "include_incomplete")
    ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_INCOMPLETE_FIELD_NUMBER: _ClassVar[int]
    id: str
    include_incomplete: bool
    def __init__(self, id: _Optional[str] = ..., include_incomplete: bool = ...) -> None: ...

class ListUserAchievementsResponse(_message.Message):
    __slots__ = ("achievements",)
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    def __init__(self, achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ...) -> None: ...

class ListAchievementStatsRequest(_message.Message):
    __slots__ = ("user_attributes",)
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    user_attributes: str
    def __init__(self, user_attributes: _Optional[str] = ...) -> None: ...

class ListAchievementStatsResponse(_message.Message):
    __slots__ = ("achievements",)
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    def __init__(self, achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ...) -> None: ...

class GetUserStreakRequest(_message.Message):
    __slots__ = ("id", "history_periods")
    ID_FIELD_NUMBER: _ClassVar[int]
    HISTORY_PERIODS_FIELD_NUMBER: _ClassVar[int]
    id: str
    history_periods: int
    def __init__(self, id: _Optional[str] = ..., history_periods: _Optional[int] = ...) -> None: ...

class StreakPauseInfo(_message.Message):
    __slots__ = ("id", "start", "end")
    ID_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    id: str
    start: str
    end: str
    def __init__(self, id: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ...) -> None: ...

class UserStreak(_message.Message):
    __slots__ = ("length", "frequency", "started", "period_start", "period_end", "expires", "freezes", "max_freezes", "freeze_auto_earn_interval", "freeze_auto_earn_amount", "extended", "streak_history", "pauses")
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    PERIOD_START_FIELD_NUMBER: _ClassVar[int]
    PERIOD_END_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_FIELD_NUMBER: _ClassVar[int]
    FREEZES_FIELD_NUMBER: _ClassVar[int]
    MAX_FREEZES_FIELD_NUMBER: _ClassVar[int]
    FREEZE_AUTO_EARN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    FREEZE_AUTO_EARN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    EXTENDED_FIELD_NUMBER: _ClassVar[int]
    STREAK_HISTORY_FIELD_NUMBER: _ClassVar[int]
    PAUSES_FIELD_NUMBER: _ClassVar[int]
    length: int
    frequency: _streak_pb2.StreakFrequency
    started: str
    period_start: str
    period_end: str
    expires: str
    freezes: int
    max_freezes: int
    freeze_auto_earn_interval: int
    freeze_auto_earn_amount: int
    extended: _timestamp_pb2.Timestamp
    streak_history: _containers.RepeatedCompositeFieldContainer[_streak_pb2.StreakPeriod]
    pauses: _containers.RepeatedCompositeFieldContainer[StreakPauseInfo]
    def __init__(self, length: _Optional[int] = ..., frequency: _Optional[_Union[_streak_pb2.StreakFrequency, str]] = ..., started: _Optional[str] = ..., period_start: _Optional[str] = ..., period_end: _Optional[str] = ..., expires: _Optional[str] = ..., freezes: _Optional[int] = ..., max_freezes: _Optional[int] = ..., freeze_auto_earn_interval: _Optional[int] = ..., freeze_auto_earn_amount: _Optional[int] = ..., extended: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., streak_history: _Optional[_Iterable[_Union[_streak_pb2.StreakPeriod, _Mapping]]] = ..., pauses: _Optional[_Iterable[_Union[StreakPauseInfo, _Mapping]]] = ...) -> None: ...

class GetUserStreakResponse(_message.Message):
    __slots__ = ("streak",)
    STREAK_FIELD_NUMBER: _ClassVar[int]
    streak: UserStreak
    def __init__(self, streak: _Optional[_Union[UserStreak, _Mapping]] = ...) -> None: ...

class ListStreaksRequest(_message.Message):
    __slots__ = ("user_ids",)
    USER_IDS_FIELD_NUMBER: _ClassVar[int]
    user_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, user_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class UserStreakLength(_message.Message):
    __slots__ = ("user_id", "streak_length", "extended")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    EXTENDED_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    streak_length: int
    extended: _timestamp_pb2.Timestamp
    def __init__(self, user_id: _Optional[str] = ..., streak_length: _Optional[int] = ..., extended: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListStreaksResponse(_message.Message):
    __slots__ = ("streaks",)
    STREAKS_FIELD_NUMBER: _ClassVar[int]
    streaks: _containers.RepeatedCompositeFieldContainer[UserStreakLength]
    def __init__(self, streaks: _Optional[_Iterable[_Union[UserStreakLength, _Mapping]]] = ...) -> None: ...
