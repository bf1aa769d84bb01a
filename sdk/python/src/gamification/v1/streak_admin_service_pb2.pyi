from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import streak_pb2 as _streak_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StreakEvaluationMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STREAK_EVALUATION_MODE_UNSPECIFIED: _ClassVar[StreakEvaluationMode]
    STREAK_EVALUATION_MODE_ALL: _ClassVar[StreakEvaluationMode]
    STREAK_EVALUATION_MODE_ANY: _ClassVar[StreakEvaluationMode]
STREAK_EVALUATION_MODE_UNSPECIFIED: StreakEvaluationMode
STREAK_EVALUATION_MODE_ALL: StreakEvaluationMode
STREAK_EVALUATION_MODE_ANY: StreakEvaluationMode

class StreakMetric(_message.Message):
    __slots__ = ("metric_id", "threshold", "key")
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    metric_id: str
    threshold: float
    key: str
    def __init__(self, metric_id: _Optional[str] = ..., threshold: _Optional[float] = ..., key: _Optional[str] = ...) -> None: ...

class StreakFreezeAutoEarn(_message.Message):
    __slots__ = ("amount", "interval_days")
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    INTERVAL_DAYS_FIELD_NUMBER: _ClassVar[int]
    amount: int
    interval_days: int
    def __init__(self, amount: _Optional[int] = ..., interval_days: _Optional[int] = ...) -> None: ...

class StreakFreezeSettings(_message.Message):
    __slots__ = ("initial_grant", "auto_earn", "max_freezes", "start_count", "max_count", "auto_earn_interval", "auto_earn_amount")
    INITIAL_GRANT_FIELD_NUMBER: _ClassVar[int]
    AUTO_EARN_FIELD_NUMBER: _ClassVar[int]
    MAX_FREEZES_FIELD_NUMBER: _ClassVar[int]
    START_COUNT_FIELD_NUMBER: _ClassVar[int]
    MAX_COUNT_FIELD_NUMBER: _ClassVar[int]
    AUTO_EARN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    AUTO_EARN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    initial_grant: int
    auto_earn: StreakFreezeAutoEarn
    max_freezes: int
    start_count: int
    max_count: int
    auto_earn_interval: int
    auto_earn_amount: int
    def __init__(self, initial_grant: _Optional[int] = ..., auto_earn: _Optional[_Union[StreakFreezeAutoEarn, _Mapping]] = ..., max_freezes: _Optional[int] = ..., start_count: _Optional[int] = ..., max_count: _Optional[int] = ..., auto_earn_interval: _Optional[int] = ..., auto_earn_amount: _Optional[int] = ...) -> None: ...

class StreakSettings(_message.Message):
    __slots__ = ("frequency", "metrics", "evaluation_mode", "freezes", "customization_enabled", "days_off")
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_MODE_FIELD_NUMBER: _ClassVar[int]
    FREEZES_FIELD_NUMBER: _ClassVar[int]
    CUSTOMIZATION_ENABLED_FIELD_NUMBER: _ClassVar[int]
    DAYS_OFF_FIELD_NUMBER: _ClassVar[int]
    frequency: _streak_pb2.StreakFrequency
    metrics: _containers.RepeatedCompositeFieldContainer[StreakMetric]
    evaluation_mode: StreakEvaluationMode
    freezes: StreakFreezeSettings
    customization_enabled: bool
    days_off: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, frequency: _Optional[_Union[_streak_pb2.StreakFrequency, str]] = ..., metrics: _Optional[_Iterable[_Union[StreakMetric, _Mapping]]] = ..., evaluation_mode: _Optional[_Union[StreakEvaluationMode, str]] = ..., freezes: _Optional[_Union[StreakFreezeSettings, _Mapping]] = ..., customization_enabled: bool = ..., days_off: _Optional[_Iterable[int]] = ...) -> None: ...

class GetStreakSettingsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetStreakSettingsResponse(_message.Message):
    __slots__ = ("settings",)
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: StreakSettings
    def __init__(self, settings: _Optional[_Union[StreakSettings, _Mapping]] = ...) -> None: ...

class UpdateStreakSettingsRequest(_message.Message):
    __slots__ = ("settings",)
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: StreakSettings
    def __init__(self, settings: _Optional[_Union[StreakSettings, _Mapping]] = ...) -> None: ...

class UpdateStreakSettingsResponse(_message.Message):
    __slots__ = ("settings",)
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: StreakSettings
    def __init__(self, settings: _Optional[_Union[StreakSettings, _Mapping]] = ...) -> None: ...

class StreakFreezeGrant(_message.Message):
    __slots__ = ("user_id",)
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class CreateStreakFreezesRequest(_message.Message):
    __slots__ = ("freezes",)
    FREEZES_FIELD_NUMBER: _ClassVar[int]
    freezes: _containers.RepeatedCompositeFieldContainer[StreakFreezeGrant]
    def __init__(self, freezes: _Optional[_Iterable[_Union[StreakFreezeGrant, _Mapping]]] = ...) -> None: ...

class CreateStreakFreezesResponse(_message.Message):
    __slots__ = ("issues",)
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class StreakPauseDraft(_message.Message):
    __slots__ = ("user_id", "start", "end")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    start: str
    end: str
    def __init__(self, user_id: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ...) -> None: ...

class CreateStreakPausesRequest(_message.Message):
    __slots__ = ("pauses",)
    PAUSES_FIELD_NUMBER: _ClassVar[int]
    pauses: _containers.RepeatedCompositeFieldContainer[StreakPauseDraft]
    def __init__(self, pauses: _Optional[_Iterable[_Union[StreakPauseDraft, _Mapping]]] = ...) -> None: ...

class AdminStreakPause(_message.Message):
    __slots__ = ("id", "user_id", "start", "end", "status")
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    id: str
    user_id: str
    start: str
    end: str
    status: str
    def __init__(self, id: _Optional[str] = ..., user_id: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., status: _Optional[str] = ...) -> None: ...

class CreateStreakPausesResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[AdminStreakPause]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[AdminStreakPause, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteStreakPausesRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteStreakPausesResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class StreakRestoreUser(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class RestoreStreaksRequest(_message.Message):
    __slots__ = ("users",)
    USERS_FIELD_NUMBER: _ClassVar[int]
    users: _containers.RepeatedCompositeFieldContainer[StreakRestoreUser]
    def __init__(self, users: _Optional[_Iterable[_Union[StreakRestoreUser, _Mapping]]] = ...) -> None: ...

class RestoreStreaksResponse(_message.Message):
    __slots__ = ("restored_users", "issues")
    RESTORED_USERS_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    restored_users: _containers.RepeatedScalarFieldContainer[str]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, restored_users: _Optional[_Iterable[str]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class StreakSettingsMetricKey(_message.Message):
    __slots__ = ("key", "threshold")
    KEY_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    key: str
    threshold: float
    def __init__(self, key: _Optional[str] = ..., threshold: _Optional[float] = ...) -> None: ...

class PatchStreakSettingsRequest(_message.Message):
    __slots__ = ("frequency", "evaluation_mode", "customization_enabled", "days_off", "metrics", "freezes")
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_MODE_FIELD_NUMBER: _ClassVar[int]
    CUSTOMIZATION_ENABLED_FIELD_NUMBER: _ClassVar[int]
    DAYS_OFF_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    FREEZES_FIELD_NUMBER: _ClassVar[int]
    frequency: _streak_pb2.StreakFrequency
    evaluation_mode: str
    customization_enabled: bool
    days_off: _struct_pb2.ListValue
    metrics: _containers.RepeatedCompositeFieldContainer[StreakSettingsMetricKey]
    freezes: _struct_pb2.Value
    def __init__(self, frequency: _Optional[_Union[_streak_pb2.StreakFrequency, str]] = ..., evaluation_mode: _Optional[str] = ..., customization_enabled: bool = ..., days_off: _Optional[_Union[_struct_pb2.ListValue, _Mapping]] = ..., metrics: _Optional[_Iterable[_Union[StreakSettingsMetricKey, _Mapping]]] = ..., freezes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class PatchStreakSettingsResponse(_message.Message):
    __slots__ = ("settings",)
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: StreakSettings
    def __init__(self, settings: _Optional[_Union[StreakSettings, _Mapping]] = ...) -> None: ...

class StreakResetUser(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class ResetStreaksRequest(_message.Message):
    __slots__ = ("users",)
    USERS_FIELD_NUMBER: _ClassVar[int]
    users: _containers.RepeatedCompositeFieldContainer[StreakResetUser]
    def __init__(self, users: _Optional[_Iterable[_Union[StreakResetUser, _Mapping]]] = ...) -> None: ...

class ResetStreaksResponse(_message.Message):
    __slots__ = ("reset_users", "issues")
    RESET_USERS_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    reset_users: _containers.RepeatedScalarFieldContainer[str]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, reset_users: _Optional[_Iterable[str]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...
