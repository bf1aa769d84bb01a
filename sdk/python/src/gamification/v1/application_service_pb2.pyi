import datetime

from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import achievement_pb2 as _achievement_pb2
from gamification.v1 import leaderboard_pb2 as _leaderboard_pb2
from gamification.v1 import leaderboard_service_pb2 as _leaderboard_service_pb2
from gamification.v1 import options_pb2 as _options_pb2
from gamification.v1 import points_pb2 as _points_pb2
from gamification.v1 import streak_pb2 as _streak_pb2
from gamification.v1 import user_pb2 as _user_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
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

class StreakRankingType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STREAK_RANKING_TYPE_UNSPECIFIED: _ClassVar[StreakRankingType]
    STREAK_RANKING_TYPE_ACTIVE: _ClassVar[StreakRankingType]
    STREAK_RANKING_TYPE_LONGEST: _ClassVar[StreakRankingType]
SUMMARY_AGGREGATION_UNSPECIFIED: SummaryAggregation
SUMMARY_AGGREGATION_DAILY: SummaryAggregation
SUMMARY_AGGREGATION_WEEKLY: SummaryAggregation
SUMMARY_AGGREGATION_MONTHLY: SummaryAggregation
STREAK_RANKING_TYPE_UNSPECIFIED: StreakRankingType
STREAK_RANKING_TYPE_ACTIVE: StreakRankingType
STREAK_RANKING_TYPE_LONGEST: StreakRankingType

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
    __slots__ = ("email", "tz", "name", "device_tokens", "subscribe_to_emails", "attributes", "sign_up_date", "clear_device_tokens", "id", "clear_tz", "clear_email", "clear_name")
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
    SIGN_UP_DATE_FIELD_NUMBER: _ClassVar[int]
    CLEAR_DEVICE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    CLEAR_TZ_FIELD_NUMBER: _ClassVar[int]
    CLEAR_EMAIL_FIELD_NUMBER: _ClassVar[int]
    CLEAR_NAME_FIELD_NUMBER: _ClassVar[int]
    email: str
    tz: str
    name: str
    device_tokens: _containers.RepeatedScalarFieldContainer[str]
    subscribe_to_emails: bool
    attributes: _containers.ScalarMap[str, str]
    sign_up_date: str
    clear_device_tokens: bool
    id: str
    clear_tz: bool
    clear_email: bool
    clear_name: bool
    def __init__(self, email: _Optional[str] = ..., tz: _Optional[str] = ..., name: _Optional[str] = ..., device_tokens: _Optional[_Iterable[str]] = ..., subscribe_to_emails: bool = ..., attributes: _Optional[_Mapping[str, str]] = ..., sign_up_date: _Optional[str] = ..., clear_device_tokens: bool = ..., id: _Optional[str] = ..., clear_tz: bool = ..., clear_email: bool = ..., clear_name: bool = ...) -> None: ...

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

class GetUserWrappedRequest(_message.Message):
    __slots__ = ("id", "year")
    ID_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    id: str
    year: int
    def __init__(self, id: _Optional[str] = ..., year: _Optional[int] = ...) -> None: ...

class GetUserWrappedResponse(_message.Message):
    __slots__ = ("user", "activity")
    USER_FIELD_NUMBER: _ClassVar[int]
    ACTIVITY_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.User
    activity: WrappedActivity
    def __init__(self, user: _Optional[_Union[_user_pb2.User, _Mapping]] = ..., activity: _Optional[_Union[WrappedActivity, _Mapping]] = ...) -> None: ...

class WrappedActivity(_message.Message):
    __slots__ = ("days_active", "weeks_active", "months_active", "most_active_day", "most_active_week", "most_active_month", "entire_year")
    DAYS_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    WEEKS_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    MONTHS_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    MOST_ACTIVE_DAY_FIELD_NUMBER: _ClassVar[int]
    MOST_ACTIVE_WEEK_FIELD_NUMBER: _ClassVar[int]
    MOST_ACTIVE_MONTH_FIELD_NUMBER: _ClassVar[int]
    ENTIRE_YEAR_FIELD_NUMBER: _ClassVar[int]
    days_active: int
    weeks_active: int
    months_active: int
    most_active_day: WrappedDay
    most_active_week: WrappedWeek
    most_active_month: WrappedMonth
    entire_year: WrappedYear
    def __init__(self, days_active: _Optional[int] = ..., weeks_active: _Optional[int] = ..., months_active: _Optional[int] = ..., most_active_day: _Optional[_Union[WrappedDay, _Mapping]] = ..., most_active_week: _Optional[_Union[WrappedWeek, _Mapping]] = ..., most_active_month: _Optional[_Union[WrappedMonth, _Mapping]] = ..., entire_year: _Optional[_Union[WrappedYear, _Mapping]] = ...) -> None: ...

class WrappedMetric(_message.Message):
    __slots__ = ("name", "units", "current_total", "change_this_period", "percent_change", "percentile_this_period", "by_attribute")
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_TOTAL_FIELD_NUMBER: _ClassVar[int]
    CHANGE_THIS_PERIOD_FIELD_NUMBER: _ClassVar[int]
    PERCENT_CHANGE_FIELD_NUMBER: _ClassVar[int]
    PERCENTILE_THIS_PERIOD_FIELD_NUMBER: _ClassVar[int]
    BY_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    name: str
    units: str
    current_total: float
    change_this_period: float
    percent_change: float
    percentile_this_period: float
    by_attribute: _struct_pb2.Struct
    def __init__(self, name: _Optional[str] = ..., units: _Optional[str] = ..., current_total: _Optional[float] = ..., change_this_period: _Optional[float] = ..., percent_change: _Optional[float] = ..., percentile_this_period: _Optional[float] = ..., by_attribute: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class WrappedPoints(_message.Message):
    __slots__ = ("name", "description", "current_total", "change_this_period", "percent_change", "percentile_this_period")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CURRENT_TOTAL_FIELD_NUMBER: _ClassVar[int]
    CHANGE_THIS_PERIOD_FIELD_NUMBER: _ClassVar[int]
    PERCENT_CHANGE_FIELD_NUMBER: _ClassVar[int]
    PERCENTILE_THIS_PERIOD_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    current_total: float
    change_this_period: float
    percent_change: float
    percentile_this_period: float
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., current_total: _Optional[float] = ..., change_this_period: _Optional[float] = ..., percent_change: _Optional[float] = ..., percentile_this_period: _Optional[float] = ...) -> None: ...

class WrappedDay(_message.Message):
    __slots__ = ("date", "metrics", "points", "achievements", "leaderboards")
    class MetricsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedMetric
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedMetric, _Mapping]] = ...) -> None: ...
    class PointsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedPoints
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedPoints, _Mapping]] = ...) -> None: ...
    class LeaderboardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _leaderboard_service_pb2.UserLeaderboard
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_leaderboard_service_pb2.UserLeaderboard, _Mapping]] = ...) -> None: ...
    DATE_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    date: str
    metrics: _containers.MessageMap[str, WrappedMetric]
    points: _containers.MessageMap[str, WrappedPoints]
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    leaderboards: _containers.MessageMap[str, _leaderboard_service_pb2.UserLeaderboard]
    def __init__(self, date: _Optional[str] = ..., metrics: _Optional[_Mapping[str, WrappedMetric]] = ..., points: _Optional[_Mapping[str, WrappedPoints]] = ..., achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ..., leaderboards: _Optional[_Mapping[str, _leaderboard_service_pb2.UserLeaderboard]] = ...) -> None: ...

class WrappedWeek(_message.Message):
    __slots__ = ("start", "end", "metrics", "points", "achievements", "leaderboards")
    class MetricsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedMetric
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedMetric, _Mapping]] = ...) -> None: ...
    class PointsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedPoints
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedPoints, _Mapping]] = ...) -> None: ...
    class LeaderboardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _leaderboard_service_pb2.UserLeaderboard
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_leaderboard_service_pb2.UserLeaderboard, _Mapping]] = ...) -> None: ...
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    start: str
    end: str
    metrics: _containers.MessageMap[str, WrappedMetric]
    points: _containers.MessageMap[str, WrappedPoints]
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    leaderboards: _containers.MessageMap[str, _leaderboard_service_pb2.UserLeaderboard]
    def __init__(self, start: _Optional[str] = ..., end: _Optional[str] = ..., metrics: _Optional[_Mapping[str, WrappedMetric]] = ..., points: _Optional[_Mapping[str, WrappedPoints]] = ..., achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ..., leaderboards: _Optional[_Mapping[str, _leaderboard_service_pb2.UserLeaderboard]] = ...) -> None: ...

class WrappedMonth(_message.Message):
    __slots__ = ("month", "metrics", "points", "achievements", "leaderboards")
    class MetricsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedMetric
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedMetric, _Mapping]] = ...) -> None: ...
    class PointsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedPoints
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedPoints, _Mapping]] = ...) -> None: ...
    class LeaderboardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _leaderboard_service_pb2.UserLeaderboard
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_leaderboard_service_pb2.UserLeaderboard, _Mapping]] = ...) -> None: ...
    MONTH_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    month: int
    metrics: _containers.MessageMap[str, WrappedMetric]
    points: _containers.MessageMap[str, WrappedPoints]
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    leaderboards: _containers.MessageMap[str, _leaderboard_service_pb2.UserLeaderboard]
    def __init__(self, month: _Optional[int] = ..., metrics: _Optional[_Mapping[str, WrappedMetric]] = ..., points: _Optional[_Mapping[str, WrappedPoints]] = ..., achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ..., leaderboards: _Optional[_Mapping[str, _leaderboard_service_pb2.UserLeaderboard]] = ...) -> None: ...

class WrappedYear(_message.Message):
    __slots__ = ("metrics", "points", "achievements", "leaderboards", "longest_streak")
    class MetricsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedMetric
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedMetric, _Mapping]] = ...) -> None: ...
    class PointsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: WrappedPoints
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[WrappedPoints, _Mapping]] = ...) -> None: ...
    class LeaderboardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _leaderboard_service_pb2.UserLeaderboard
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_leaderboard_service_pb2.UserLeaderboard, _Mapping]] = ...) -> None: ...
    METRICS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    LONGEST_STREAK_FIELD_NUMBER: _ClassVar[int]
    metrics: _containers.MessageMap[str, WrappedMetric]
    points: _containers.MessageMap[str, WrappedPoints]
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    leaderboards: _containers.MessageMap[str, _leaderboard_service_pb2.UserLeaderboard]
    longest_streak: WrappedStreak
    def __init__(self, metrics: _Optional[_Mapping[str, WrappedMetric]] = ..., points: _Optional[_Mapping[str, WrappedPoints]] = ..., achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ..., leaderboards: _Optional[_Mapping[str, _leaderboard_service_pb2.UserLeaderboard]] = ..., longest_streak: _Optional[_Union[WrappedStreak, _Mapping]] = ...) -> None: ...

class WrappedStreak(_message.Message):
    __slots__ = ("length", "frequency", "period_start", "period_end", "started")
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    PERIOD_START_FIELD_NUMBER: _ClassVar[int]
    PERIOD_END_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    length: int
    frequency: _streak_pb2.StreakFrequency
    period_start: str
    period_end: str
    started: str
    def __init__(self, length: _Optional[int] = ..., frequency: _Optional[_Union[_streak_pb2.StreakFrequency, str]] = ..., period_start: _Optional[str] = ..., period_end: _Optional[str] = ..., started: _Optional[str] = ...) -> None: ...

class NotificationPreferences(_message.Message):
    __slots__ = ("achievement_completed", "recap", "reactivation", "streak_reminder")
    ACHIEVEMENT_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    RECAP_FIELD_NUMBER: _ClassVar[int]
    REACTIVATION_FIELD_NUMBER: _ClassVar[int]
    STREAK_REMINDER_FIELD_NUMBER: _ClassVar[int]
    achievement_completed: _struct_pb2.ListValue
    recap: _struct_pb2.ListValue
    reactivation: _struct_pb2.ListValue
    streak_reminder: _struct_pb2.ListValue
    def __init__(self, achievement_completed: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ..., recap: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ..., reactivation: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ..., streak_reminder: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ...) -> None: ...

class StreakMetricPreference(_message.Message):
    __slots__ = ("key", "threshold")
    KEY_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    key: str
    threshold: float
    def __init__(self, key: _Optional[str] = ..., threshold: _Optional[float] = ...) -> None: ...

class StreakPreferences(_message.Message):
    __slots__ = ("enabled", "evaluation_mode", "metrics", "days_off")
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_MODE_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    DAYS_OFF_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    evaluation_mode: str
    metrics: _containers.RepeatedCompositeFieldContainer[StreakMetricPreference]
    days_off: _struct_pb2.ListValue
    def __init__(self, enabled: bool = ..., evaluation_mode: _Optional[str] = ..., metrics: _Optional[_Iterable[_Union[StreakMetricPreference, _Mapping]]] = ..., days_off: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ...) -> None: ...

class LeaderboardPreferences(_message.Message):
    __slots__ = ("opt_out",)
    OPT_OUT_FIELD_NUMBER: _ClassVar[int]
    opt_out: bool
    def __init__(self, opt_out: bool = ...) -> None: ...

class UserPreferences(_message.Message):
    __slots__ = ("notifications", "streak", "leaderboards")
    NOTIFICATIONS_FIELD_NUMBER: _ClassVar[int]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    notifications: NotificationPreferences
    streak: StreakPreferences
    leaderboards: LeaderboardPreferences
    def __init__(self, notifications: _Optional[_Union[NotificationPreferences, _Mapping]] = ..., streak: _Optional[_Union[StreakPreferences, _Mapping]] = ..., leaderboards: _Optional[_Union[LeaderboardPreferences, _Mapping]] = ...) -> None: ...

class GetUserPreferencesRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetUserPreferencesResponse(_message.Message):
    __slots__ = ("preferences",)
    PREFERENCES_FIELD_NUMBER: _ClassVar[int]
    preferences: UserPreferences
    def __init__(self, preferences: _Optional[_Union[UserPreferences, _Mapping]] = ...) -> None: ...

class UpdateUserPreferencesRequest(_message.Message):
    __slots__ = ("id", "preferences")
    ID_FIELD_NUMBER: _ClassVar[int]
    PREFERENCES_FIELD_NUMBER: _ClassVar[int]
    id: str
    preferences: UserPreferences
    def __init__(self, id: _Optional[str] = ..., preferences: _Optional[_Union[UserPreferences, _Mapping]] = ...) -> None: ...

class UpdateUserPreferencesResponse(_message.Message):
    __slots__ = ("preferences",)
    PREFERENCES_FIELD_NUMBER: _ClassVar[int]
    preferences: UserPreferences
    def __init__(self, preferences: _Optional[_Union[UserPreferences, _Mapping]] = ...) -> None: ...

class ListStreakRankingsRequest(_message.Message):
    __slots__ = ("limit", "type")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    limit: int
    type: StreakRankingType
    def __init__(self, limit: _Optional[int] = ..., type: _Optional[_Union[StreakRankingType, str]] = ...) -> None: ...

class StreakRankingUser(_message.Message):
    __slots__ = ("user_id", "name", "streak_length")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    name: str
    streak_length: int
    def __init__(self, user_id: _Optional[str] = ..., name: _Optional[str] = ..., streak_length: _Optional[int] = ...) -> None: ...

class ListStreakRankingsResponse(_message.Message):
    __slots__ = ("rankings",)
    RANKINGS_FIELD_NUMBER: _ClassVar[int]
    rankings: _containers.RepeatedCompositeFieldContainer[StreakRankingUser]
    def __init__(self, rankings: _Optional[_Iterable[_Union[StreakRankingUser, _Mapping]]] = ...) -> None: ...
