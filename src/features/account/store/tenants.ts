import type { TenantConfig } from "../domain/tenant.js";

export interface TenantDocument extends Omit<TenantConfig, "id"> {
  _id: string;
  /**
   * When its deletion began. From then on the tenant answers to no one (reads treat it as gone), and
   * its data is being deleted; the document goes last, so a deletion a crash cut short is found and
   * finished (at the next start, or by deleting the tenant again).
   */
  deleting?: Date;
}

/** Tenants that callers see: not being deleted. */
export const LIVE_TENANTS = { deleting: { $exists: false } } as const;

export function tenantFromDocument({ _id, deleting: _deleting, ...rest }: TenantDocument): TenantConfig {
  return { id: _id, ...rest };
}

/** The tenant a document holds, or null when there is none or it is being deleted. */
export function liveTenant(doc: TenantDocument | null): TenantConfig | null {
  return doc && !doc.deleting ? tenantFromDocument(doc) : null;
}
