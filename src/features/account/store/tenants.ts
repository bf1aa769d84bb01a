import type { TenantConfig } from "../domain/tenant.js";

export interface TenantDocument extends Omit<TenantConfig, "id"> {
  _id: string;
}

export function tenantFromDocument({ _id, ...rest }: TenantDocument): TenantConfig {
  return { id: _id, ...rest };
}
