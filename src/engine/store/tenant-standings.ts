/**
 * Single-instance mode only: what the points and level summaries count of each user of a tenant (its
 * attributes and its points totals), kept in memory once a summary asked for the tenant, so that
 * the next summaries count from memory instead of reading every user of the tenant again (13 s for
 * 20,000 users on FerretDB). It stays exact for the reason the user cache does
 * (engine/store/user-documents.ts): this process is the database's only writer, and every user
 * write, creation and deletion goes through user-documents.ts, which tells this module.
 *
 * The first summary of a tenant reads its users (`build`); writes during that walk win over what the
 * walk read, since they are newer. A write whose outcome is unknown (it failed) forgets the tenant:
 * the next summary reads its users again. Memory: about 400 bytes per user (measured with two
 * points systems and one attribute), kept for every tenant a summary was asked for, up to
 * `maxUsers` users in all (MAX_KEPT_USERS, about 200 MB): a tenant that would take the process past
 * it is not kept, and its summaries read its users every time (as in versioned mode).
 */

/** Users whose standings one process keeps at most, over all tenants. */
export const MAX_KEPT_USERS = 500_000;

/** The part of a user's state the summaries count. Stored states (encoded) have the same shape. */
export interface UserStanding {
  /** As stored: the summaries count the values in force (`attributesInForce`, engine/domain/user.ts). */
  attributes: Readonly<Record<string, string>>;
  attributeIds: Readonly<Record<string, string>>;
  /** Points total by points system ID (absent: 0). */
  points: Readonly<Record<string, number>>;
}

interface TenantStandings {
  users: Map<string, UserStanding>;
  /** While the first walk runs: the users written (or deleted) since it started, whom it must not set. */
  writtenDuringBuild: Set<string> | null;
  built: Promise<void>;
}

/** One registry per users collection (so tests' services and databases stay apart), present only in single-instance mode. */
export interface StandingsRegistry {
  tenants: Map<string, TenantStandings>;
  maxUsers: number;
}

export function createStandingsRegistry(maxUsers = MAX_KEPT_USERS): StandingsRegistry {
  return { tenants: new Map(), maxUsers };
}

/** Forgets the tenant when the registry holds more users than it may. */
function keepWithinBound(registry: StandingsRegistry, tenantId: string): void {
  let kept = 0;
  for (const tenant of registry.tenants.values()) kept += tenant.users.size;
  if (kept > registry.maxUsers) registry.tenants.delete(tenantId);
}

export function standingOf(state: {
  attributes?: Record<string, string>;
  attributeIds?: Record<string, string>;
  points?: Record<string, { total?: number }>;
}): UserStanding {
  const points: Record<string, number> = {};
  for (const [systemId, system] of Object.entries(state.points ?? {})) if (system.total !== undefined) points[systemId] = system.total;
  return { attributes: state.attributes ?? {}, attributeIds: state.attributeIds ?? {}, points };
}

/** A user's state was written (created or changed). */
export function noteWritten(registry: StandingsRegistry | undefined, tenantId: string, userId: string, standing: () => UserStanding): void {
  const tenant = registry?.tenants.get(tenantId);
  if (!tenant) return;
  const isNew = !tenant.users.has(userId);
  tenant.users.set(userId, standing());
  tenant.writtenDuringBuild?.add(userId);
  if (isNew) keepWithinBound(registry!, tenantId);
}

/** A user's document was deleted. */
export function noteDeleted(registry: StandingsRegistry | undefined, tenantId: string, userId: string): void {
  const tenant = registry?.tenants.get(tenantId);
  if (!tenant) return;
  tenant.users.delete(userId);
  tenant.writtenDuringBuild?.add(userId);
}

/** What a tenant's users hold is no longer known (a write failed, or the tenant was deleted). */
export function forgetStandings(registry: StandingsRegistry | undefined, tenantId: string): void {
  registry?.tenants.delete(tenantId);
}

/**
 * The standings of a tenant's users: from memory, or read once by `read` (each stored user with its
 * ID) and kept from then on. Without a registry (versioned mode), read every time.
 */
export async function standingsOfTenant(
  registry: StandingsRegistry | undefined,
  tenantId: string,
  read: () => AsyncIterable<{ userId: string; standing: UserStanding }>,
): Promise<Iterable<UserStanding>> {
  if (!registry) {
    const all: UserStanding[] = [];
    for await (const { standing } of read()) all.push(standing);
    return all;
  }
  let tenant = registry.tenants.get(tenantId);
  if (!tenant) {
    const building: TenantStandings = { users: new Map(), writtenDuringBuild: new Set(), built: Promise.resolve() };
    building.built = (async () => {
      try {
        for await (const { userId, standing } of read()) if (!building.writtenDuringBuild!.has(userId)) building.users.set(userId, standing);
        building.writtenDuringBuild = null;
        if (registry.tenants.get(tenantId) === building) keepWithinBound(registry, tenantId);
      } catch (error) {
        if (registry.tenants.get(tenantId) === building) registry.tenants.delete(tenantId);
        throw error;
      }
    })();
    registry.tenants.set(tenantId, (tenant = building));
  }
  await tenant.built;
  return tenant.users.values();
}
