/** A tenant of the account. `customerId` is the caller's own identifier, sent as `Tenant-ID`. */
export interface TenantConfig {
  id: string;
  customerId: string;
  name: string;
  status: "active" | "archived";
  created: Date;
  updated: Date;
}

/** The scope every read and write runs in: a tenant's internal ID, or the account's default scope. */
export const DEFAULT_SCOPE = "default";

const MAX_LENGTH = 255;
/** Customer IDs travel in an HTTP header: printable ASCII without spaces. */
const CUSTOMER_ID = /^[\x21-\x7e]+$/;

export function checkCustomerId(customerId: string): string | null {
  if (customerId === "") return "customerId is required";
  if (customerId.length > MAX_LENGTH) return `customerId must be at most ${MAX_LENGTH} characters`;
  if (!CUSTOMER_ID.test(customerId)) return "customerId must be printable ASCII without spaces (it is sent in the Tenant-ID header)";
  return null;
}
