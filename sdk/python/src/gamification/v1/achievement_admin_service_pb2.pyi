from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import achievement_pb2 as _achievement_pb2
from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AchievementStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACHIEVEMENT_STATUS_UNSPECIFIED: _ClassVar[AchievementStatus]
    ACHIEVEMENT_STATUS_ACTIVE: _ClassVar[AchievementStatus]
    ACHIEVEMENT_STATUS_INACTIVE: _ClassVar[AchievementStatus]
    ACHIEVEMENT_STATUS_LOCKED: _ClassVar[AchievementStatus]
ACHIEVEMENT_STATUS_UNSPECIFIED: AchievementStatus
ACHIEVEMENT_STATUS_ACTIVE: AchievementStatus
ACHIEVEMENT_STATUS_INACTIVE: AchievementStatus
ACHIEVEMENT_STATUS_LOCKED: AchievementStatus

class AdminAchievement(_message.Message):
    __slots__ = ("id", "name", "key", "description", "badge_url", "trigger", "status", "metric_id", "metric_value", "streak_length", "achievement_ids", "user_attributes", "event_attributes", "badge")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_VALUE_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    description: str
    badge_url: str
    trigger: _achievement_pb2.AchievementTrigger
    status: AchievementStatus
    metric_id: str
    metric_value: float
    streak_length: int
    achievement_ids: _containers.RepeatedScalarFieldContainer[str]
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    event_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    badge: _common_pb2.Badge
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[str] = ..., badge_url: _Optional[str] = ..., trigger: _Optional[_Union[_achievement_pb2.AchievementTrigger, str]] = ..., status: _Optional[_Union[AchievementStatus, str]] = ..., metric_id: _Optional[str] = ..., metric_value: _Optional[float] = ..., streak_length: _Optional[int] = ..., achievement_ids: _Optional[_Iterable[str]] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., event_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., badge: _Optional[_Union[_common_pb2.Badge, _Mapping]] = ...) -> None: ...

class CreateAchievementItem(_message.Message):
    __slots__ = ("name", "key", "description", "badge_url", "trigger", "status", "metric_id", "metric_value", "streak_length", "achievement_ids", "user_attributes", "event_attributes", "badge")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_VALUE_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: str
    description: str
    badge_url: str
    trigger: _achievement_pb2.AchievementTrigger
    status: AchievementStatus
    metric_id: str
    metric_value: float
    streak_length: int
    achievement_ids: _containers.RepeatedScalarFieldContainer[str]
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    event_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    badge: _common_pb2.Badge
    def __init__(self, name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[str] = ..., badge_url: _Optional[str] = ..., trigger: _Optional[_Union[_achievement_pb2.AchievementTrigger, str]] = ..., status: _Optional[_Union[AchievementStatus, str]] = ..., metric_id: _Optional[str] = ..., metric_value: _Optional[float] = ..., streak_length: _Optional[int] = ..., achievement_ids: _Optional[_Iterable[str]] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., event_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., badge: _Optional[_Union[_common_pb2.Badge, _Mapping]] = ...) -> None: ...

class CreateAchievementsRequest(_message.Message):
    __slots__ = ("achievements",)
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    achievements: _containers.RepeatedCompositeFieldContainer[CreateAchievementItem]
    def __init__(self, achievements: _Optional[_Iterable[_Union[CreateAchievementItem, _Mapping]]] = ...) -> None: ...

class CreateAchievementsResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[AdminAchievement]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[AdminAchievement, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListAchievementsRequest(_message.Message):
    __slots__ = ("limit", "skip")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    limit: int
    skip: int
    def __init__(self, limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListAchievementsResponse(_message.Message):
    __slots__ = ("achievements",)
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    achievements: _containers.RepeatedCompositeFieldContainer[AdminAchievement]
    def __init__(self, achievements: _Optional[_Iterable[_Union[AdminAchievement, _Mapping]]] = ...) -> None: ...

class GetAchievementRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetAchievementResponse(_message.Message):
    __slots__ = ("achievement",)
    ACHIEVEMENT_FIELD_NUMBER: _ClassVar[int]
    achievement: AdminAchievement
    def __init__(self, achievement: _Optional[_Union[AdminAchievement, _Mapping]] = ...) -> None: ...

class UpdateAchievementItem(_message.Message):
    __slots__ = ("id", "name", "key", "description", "badge_url", "trigger", "status", "metric_id", "metric_value", "streak_length", "achievement_ids", "user_attributes", "event_attributes", "badge")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_VALUE_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    description: _struct_pb2.Value
    badge_url: _struct_pb2.Value
    trigger: _achievement_pb2.AchievementTrigger
    status: AchievementStatus
    metric_id: str
    metric_value: float
    streak_length: int
    achievement_ids: _containers.RepeatedScalarFieldContainer[str]
    user_attributes: _struct_pb2.Value
    event_attributes: _struct_pb2.Value
    badge: _struct_pb2.Value
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., badge_url: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., trigger: _Optional[_Union[_achievement_pb2.AchievementTrigger, str]] = ..., status: _Optional[_Union[AchievementStatus, str]] = ..., metric_id: _Optional[str] = ..., metric_value: _Optional[float] = ..., streak_length: _Optional[int] = ..., achievement_ids: _Optional[_Iterable[str]] = ..., user_attributes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., event_attributes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., badge: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class UpdateAchievementsRequest(_message.Message):
    __slots__ = ("achievements",)
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    achievements: _containers.RepeatedCompositeFieldContainer[UpdateAchievementItem]
    def __init__(self, achievements: _Optional[_Iterable[_Union[UpdateAchievementItem, _Mapping]]] = ...) -> None: ...

class UpdateAchievementsResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[AdminAchievement]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[AdminAchievement, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteAchievementsRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteAchievementsResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...
