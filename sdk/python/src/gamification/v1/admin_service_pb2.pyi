import datetime

from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import metric_pb2 as _metric_pb2
from gamification.v1 import tenant_pb2 as _tenant_pb2
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

class AttributeType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ATTRIBUTE_TYPE_UNSPECIFIED: _ClassVar[AttributeType]
    ATTRIBUTE_TYPE_USER: _ClassVar[AttributeType]
    ATTRIBUTE_TYPE_EVENT: _ClassVar[AttributeType]

class MetricEventBatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    METRIC_EVENT_BATCH_STATUS_UNSPECIFIED: _ClassVar[MetricEventBatchStatus]
    METRIC_EVENT_BATCH_STATUS_QUEUED: _ClassVar[MetricEventBatchStatus]
    METRIC_EVENT_BATCH_STATUS_PROCESSING: _ClassVar[MetricEventBatchStatus]
    METRIC_EVENT_BATCH_STATUS_COMPLETED: _ClassVar[MetricEventBatchStatus]
ATTRIBUTE_TYPE_UNSPECIFIED: AttributeType
ATTRIBUTE_TYPE_USER: AttributeType
ATTRIBUTE_TYPE_EVENT: AttributeType
METRIC_EVENT_BATCH_STATUS_UNSPECIFIED: MetricEventBatchStatus
METRIC_EVENT_BATCH_STATUS_QUEUED: MetricEventBatchStatus
METRIC_EVENT_BATCH_STATUS_PROCESSING: MetricEventBatchStatus
METRIC_EVENT_BATCH_STATUS_COMPLETED: MetricEventBatchStatus

class CreateMetricItem(_message.Message):
    __slots__ = ("name", "key", "unit_type", "units")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    UNIT_TYPE_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: str
    unit_type: _metric_pb2.MetricUnitType
    units: str
    def __init__(self, name: _Optional[str] = ..., key: _Optional[str] = ..., unit_type: _Optional[_Union[_metric_pb2.MetricUnitType, str]] = ..., units: _Optional[str] = ...) -> None: ...

class CreateMetricsRequest(_message.Message):
    __slots__ = ("metrics",)
    METRICS_FIELD_NUMBER: _ClassVar[int]
    metrics: _containers.RepeatedCompositeFieldContainer[CreateMetricItem]
    def __init__(self, metrics: _Optional[_Iterable[_Union[CreateMetricItem, _Mapping]]] = ...) -> None: ...

class CreateMetricsResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[_metric_pb2.Metric]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[_metric_pb2.Metric, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListMetricsRequest(_message.Message):
    __slots__ = ("limit", "skip")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    limit: int
    skip: int
    def __init__(self, limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListMetricsResponse(_message.Message):
    __slots__ = ("metrics",)
    METRICS_FIELD_NUMBER: _ClassVar[int]
    metrics: _containers.RepeatedCompositeFieldContainer[_metric_pb2.Metric]
    def __init__(self, metrics: _Optional[_Iterable[_Union[_metric_pb2.Metric, _Mapping]]] = ...) -> None: ...

class GetMetricRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetMetricResponse(_message.Message):
    __slots__ = ("metric",)
    METRIC_FIELD_NUMBER: _ClassVar[int]
    metric: _metric_pb2.Metric
    def __init__(self, metric: _Optional[_Union[_metric_pb2.Metric, _Mapping]] = ...) -> None: ...

class UpdateMetricItem(_message.Message):
    __slots__ = ("id", "name", "unit_type", "units", "key")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNIT_TYPE_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    unit_type: _metric_pb2.MetricUnitType
    units: str
    key: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., unit_type: _Optional[_Union[_metric_pb2.MetricUnitType, str]] = ..., units: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class UpdateMetricsRequest(_message.Message):
    __slots__ = ("metrics",)
    METRICS_FIELD_NUMBER: _ClassVar[int]
    metrics: _containers.RepeatedCompositeFieldContainer[UpdateMetricItem]
    def __init__(self, metrics: _Optional[_Iterable[_Union[UpdateMetricItem, _Mapping]]] = ...) -> None: ...

class UpdateMetricsResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[_metric_pb2.Metric]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[_metric_pb2.Metric, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteMetricsRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteMetricsResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class CreateTenantItem(_message.Message):
    __slots__ = ("customer_id", "name")
    CUSTOMER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    customer_id: str
    name: str
    def __init__(self, customer_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class CreateTenantsRequest(_message.Message):
    __slots__ = ("tenants",)
    TENANTS_FIELD_NUMBER: _ClassVar[int]
    tenants: _containers.RepeatedCompositeFieldContainer[CreateTenantItem]
    def __init__(self, tenants: _Optional[_Iterable[_Union[CreateTenantItem, _Mapping]]] = ...) -> None: ...

class CreateTenantsResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[_tenant_pb2.Tenant]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[_tenant_pb2.Tenant, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListTenantsRequest(_message.Message):
    __slots__ = ("limit", "skip")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    limit: int
    skip: int
    def __init__(self, limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListTenantsResponse(_message.Message):
    __slots__ = ("tenants",)
    TENANTS_FIELD_NUMBER: _ClassVar[int]
    tenants: _containers.RepeatedCompositeFieldContainer[_tenant_pb2.Tenant]
    def __init__(self, tenants: _Optional[_Iterable[_Union[_tenant_pb2.Tenant, _Mapping]]] = ...) -> None: ...

class GetTenantRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetTenantResponse(_message.Message):
    __slots__ = ("tenant",)
    TENANT_FIELD_NUMBER: _ClassVar[int]
    tenant: _tenant_pb2.Tenant
    def __init__(self, tenant: _Optional[_Union[_tenant_pb2.Tenant, _Mapping]] = ...) -> None: ...

class UpdateTenantItem(_message.Message):
    __slots__ = ("id", "customer_id", "name")
    ID_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    customer_id: str
    name: str
    def __init__(self, id: _Optional[str] = ..., customer_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class UpdateTenantsRequest(_message.Message):
    __slots__ = ("tenants",)
    TENANTS_FIELD_NUMBER: _ClassVar[int]
    tenants: _containers.RepeatedCompositeFieldContainer[UpdateTenantItem]
    def __init__(self, tenants: _Optional[_Iterable[_Union[UpdateTenantItem, _Mapping]]] = ...) -> None: ...

class UpdateTenantsResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[_tenant_pb2.Tenant]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[_tenant_pb2.Tenant, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteTenantsRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteTenantsResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class Attribute(_message.Message):
    __slots__ = ("id", "name", "key", "type")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    type: AttributeType
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., type: _Optional[_Union[AttributeType, str]] = ...) -> None: ...

class CreateAttributeItem(_message.Message):
    __slots__ = ("name", "key", "type")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: str
    type: AttributeType
    def __init__(self, name: _Optional[str] = ..., key: _Optional[str] = ..., type: _Optional[_Union[AttributeType, str]] = ...) -> None: ...

class CreateAttributesRequest(_message.Message):
    __slots__ = ("attributes",)
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    attributes: _containers.RepeatedCompositeFieldContainer[CreateAttributeItem]
    def __init__(self, attributes: _Optional[_Iterable[_Union[CreateAttributeItem, _Mapping]]] = ...) -> None: ...

class CreateAttributesResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[Attribute]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListAttributesRequest(_message.Message):
    __slots__ = ("limit", "skip")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    limit: int
    skip: int
    def __init__(self, limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListAttributesResponse(_message.Message):
    __slots__ = ("attributes",)
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    attributes: _containers.RepeatedCompositeFieldContainer[Attribute]
    def __init__(self, attributes: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ...) -> None: ...

class GetAttributeRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetAttributeResponse(_message.Message):
    __slots__ = ("attribute",)
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    attribute: Attribute
    def __init__(self, attribute: _Optional[_Union[Attribute, _Mapping]] = ...) -> None: ...

class UpdateAttributeItem(_message.Message):
    __slots__ = ("id", "name")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class UpdateAttributesRequest(_message.Message):
    __slots__ = ("attributes",)
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    attributes: _containers.RepeatedCompositeFieldContainer[UpdateAttributeItem]
    def __init__(self, attributes: _Optional[_Iterable[_Union[UpdateAttributeItem, _Mapping]]] = ...) -> None: ...

class UpdateAttributesResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[Attribute]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteAttributesRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteAttributesResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class RateLimit(_message.Message):
    __slots__ = ("requests_per_second", "burst")
    REQUESTS_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    BURST_FIELD_NUMBER: _ClassVar[int]
    requests_per_second: int
    burst: int
    def __init__(self, requests_per_second: _Optional[int] = ..., burst: _Optional[int] = ...) -> None: ...

class CreateApplicationApiKeyItem(_message.Message):
    __slots__ = ("user_id", "rate_limit")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    rate_limit: RateLimit
    def __init__(self, user_id: _Optional[str] = ..., rate_limit: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class CreateApplicationApiKeysRequest(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[CreateApplicationApiKeyItem]
    def __init__(self, keys: _Optional[_Iterable[_Union[CreateApplicationApiKeyItem, _Mapping]]] = ...) -> None: ...

class CreatedApplicationApiKey(_message.Message):
    __slots__ = ("id", "user_id", "key", "prefix", "rate_limit")
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    id: str
    user_id: str
    key: str
    prefix: str
    rate_limit: RateLimit
    def __init__(self, id: _Optional[str] = ..., user_id: _Optional[str] = ..., key: _Optional[str] = ..., prefix: _Optional[str] = ..., rate_limit: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class CreateApplicationApiKeysResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[CreatedApplicationApiKey]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[CreatedApplicationApiKey, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ApplicationApiKey(_message.Message):
    __slots__ = ("id", "user_id", "prefix", "created", "rate_limit")
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    id: str
    user_id: str
    prefix: str
    created: _timestamp_pb2.Timestamp
    rate_limit: RateLimit
    def __init__(self, id: _Optional[str] = ..., user_id: _Optional[str] = ..., prefix: _Optional[str] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., rate_limit: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class ListApplicationApiKeysRequest(_message.Message):
    __slots__ = ("limit", "skip")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    limit: int
    skip: int
    def __init__(self, limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListApplicationApiKeysResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[ApplicationApiKey]
    def __init__(self, keys: _Optional[_Iterable[_Union[ApplicationApiKey, _Mapping]]] = ...) -> None: ...

class UpdateApiKeyItem(_message.Message):
    __slots__ = ("id", "rate_limit")
    ID_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    id: str
    rate_limit: RateLimit
    def __init__(self, id: _Optional[str] = ..., rate_limit: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class UpdateApplicationApiKeysRequest(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[UpdateApiKeyItem]
    def __init__(self, keys: _Optional[_Iterable[_Union[UpdateApiKeyItem, _Mapping]]] = ...) -> None: ...

class UpdateApplicationApiKeysResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[ApplicationApiKey]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[ApplicationApiKey, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteApplicationApiKeysRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteApplicationApiKeysResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class AdminApiKey(_message.Message):
    __slots__ = ("id", "prefix", "created", "rate_limit")
    ID_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    id: str
    prefix: str
    created: _timestamp_pb2.Timestamp
    rate_limit: RateLimit
    def __init__(self, id: _Optional[str] = ..., prefix: _Optional[str] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., rate_limit: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class ListAdminApiKeysRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListAdminApiKeysResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[AdminApiKey]
    def __init__(self, keys: _Optional[_Iterable[_Union[AdminApiKey, _Mapping]]] = ...) -> None: ...

class CreateAdminApiKeyRequest(_message.Message):
    __slots__ = ("rate_limit",)
    RATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    rate_limit: RateLimit
    def __init__(self, rate_limit: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class CreatedAdminApiKey(_message.Message):
    __slots__ = ("id", "key", "prefix", "rate_limit")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    prefix: str
    rate_limit: RateLimit
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., prefix: _Optional[str] = ..., rate_limit: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class CreateAdminApiKeyResponse(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: CreatedAdminApiKey
    def __init__(self, key: _Optional[_Union[CreatedAdminApiKey, _Mapping]] = ...) -> None: ...

class UpdateAdminApiKeysRequest(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[UpdateApiKeyItem]
    def __init__(self, keys: _Optional[_Iterable[_Union[UpdateApiKeyItem, _Mapping]]] = ...) -> None: ...

class UpdateAdminApiKeysResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[AdminApiKey]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[AdminApiKey, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteAdminApiKeysRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteAdminApiKeysResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class BatchMetricEvent(_message.Message):
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

class CreateMetricEventBatchRequest(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[BatchMetricEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[BatchMetricEvent, _Mapping]]] = ...) -> None: ...

class CreateMetricEventBatchResponse(_message.Message):
    __slots__ = ("accepted", "batch_id")
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    BATCH_ID_FIELD_NUMBER: _ClassVar[int]
    accepted: int
    batch_id: str
    def __init__(self, accepted: _Optional[int] = ..., batch_id: _Optional[str] = ...) -> None: ...

class MetricEventBatchError(_message.Message):
    __slots__ = ("index", "idempotency_key", "message")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    index: int
    idempotency_key: str
    message: str
    def __init__(self, index: _Optional[int] = ..., idempotency_key: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class MetricEventBatch(_message.Message):
    __slots__ = ("id", "status", "total", "processed", "applied", "replayed", "failed", "errors", "attempts", "created", "updated", "completed")
    ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    PROCESSED_FIELD_NUMBER: _ClassVar[int]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    id: str
    status: MetricEventBatchStatus
    total: int
    processed: int
    applied: int
    replayed: int
    failed: int
    errors: _containers.RepeatedCompositeFieldContainer[MetricEventBatchError]
    attempts: int
    created: _timestamp_pb2.Timestamp
    updated: _timestamp_pb2.Timestamp
    completed: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., status: _Optional[_Union[MetricEventBatchStatus, str]] = ..., total: _Optional[int] = ..., processed: _Optional[int] = ..., applied: _Optional[int] = ..., replayed: _Optional[int] = ..., failed: _Optional[int] = ..., errors: _Optional[_Iterable[_Union[MetricEventBatchError, _Mapping]]] = ..., attempts: _Optional[int] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., completed: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetMetricEventBatchRequest(_message.Message):
    __slots__ = ("batch_id",)
    BATCH_ID_FIELD_NUMBER: _ClassVar[int]
    batch_id: str
    def __init__(self, batch_id: _Optional[str] = ...) -> None: ...

class GetMetricEventBatchResponse(_message.Message):
    __slots__ = ("batch",)
    BATCH_FIELD_NUMBER: _ClassVar[int]
    batch: MetricEventBatch
    def __init__(self, batch: _Optional[_Union[MetricEventBatch, _Mapping]] = ...) -> None: ...
