import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { valueError, ValidationError, NotFoundError } from '../errors.ts';
import type { StateStore } from './store.ts';
import { maxApiKeyLength } from '../limits.ts';

export interface ApiKeyRecord {
  readonly id: string;
  readonly organization_id: string;
  readonly name: string;
  readonly prefix: string;
  readonly created_at: string;
  readonly expires_on: string;
  readonly revoked_at: string | null;
}

export interface CreatedKey extends ApiKeyRecord {
  /** The key itself. It is shown once: only its SHA-256 hash is stored. */
  readonly key: string;
}

export interface Principal {
  readonly keyId: string;
  readonly organizationId: string;
  readonly createdAt: Date;
}

const keyPrefix = 'aea_';
const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * API keys: `aea_` and 43 base64url characters (256 random bits). The store keeps the SHA-256 hash, a
 * display prefix and the metadata; the key is shown once at creation. Verification hashes the presented
 * key, finds the record by hash and compares the digests in constant time.
 */
export class ApiKeys {
  private static readonly instances = new WeakMap<StateStore, ApiKeys>();
  private byHash: Map<string, ApiKeyRecord & { hash: Buffer }> | undefined;
  /** Bumped by every create and revoke: a load that began before one must not install what it read. */
  private version = 0;

  private constructor(private readonly state: StateStore) {}

  /** The one key registry of a state store, so every user of it sees a new or revoked key at once. */
  static of(state: StateStore): ApiKeys {
    let keys = ApiKeys.instances.get(state);
    if (!keys) {
      keys = new ApiKeys(state);
      ApiKeys.instances.set(state, keys);
    }
    return keys;
  }

  async create(input: { organizationId: string; name: string; expiresOn: string; now: Date }): Promise<CreatedKey> {
    const issues = [];
    if (input.name.trim().length <= 2)
      issues.push(valueError(['name'], 'a key name needs more than two characters', input.name));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(input.expiresOn) || Number.isNaN(Date.parse(`${input.expiresOn}T00:00:00Z`))) {
      issues.push(valueError(['expires'], 'the expiry date must be YYYY-MM-DD', input.expiresOn));
    } else if (input.expiresOn < input.now.toISOString().slice(0, 10)) {
      issues.push(valueError(['expires'], 'the expiry date is in the past', input.expiresOn));
    }
    if (issues.length > 0) throw new ValidationError(issues);
    const key = `${keyPrefix}${randomBytes(32).toString('base64url')}`;
    const record: ApiKeyRecord = {
      id: randomUUID(),
      organization_id: input.organizationId,
      name: input.name.trim(),
      prefix: key.slice(0, keyPrefix.length + 8),
      created_at: input.now.toISOString(),
      expires_on: input.expiresOn,
      revoked_at: null,
    };
    await this.state.transaction((conn) =>
      conn.run(
        `INSERT INTO state.api_keys (id, organization_id, name, prefix, hash, created_at, expires_on) VALUES ($id, $org, $name, $prefix, $hash, CAST($created AS TIMESTAMPTZ), CAST($expires AS DATE))`,
        {
          id: record.id,
          org: record.organization_id,
          name: record.name,
          prefix: record.prefix,
          hash: sha256(key).toString('hex'),
          created: record.created_at,
          expires: record.expires_on,
        },
      ),
    );
    this.forget();
    return { ...record, key };
  }

  async list(organizationId?: string): Promise<ApiKeyRecord[]> {
    return (await this.load()).filter((k) => !organizationId || k.organization_id === organizationId);
  }

  async revoke(id: string, now: Date): Promise<ApiKeyRecord> {
    const existing = (await this.load()).find((k) => k.id === id);
    if (!existing) throw new NotFoundError(`no API key with id ${id}`);
    await this.state.transaction((conn) =>
      conn.run(
        `UPDATE state.api_keys SET revoked_at = coalesce(revoked_at, CAST($now AS TIMESTAMPTZ)) WHERE id = $id`,
        { id, now: now.toISOString() },
      ),
    );
    this.forget();
    return (await this.load()).find((k) => k.id === id)!;
  }

  /** The key's principal, or undefined when the key is unknown, revoked or expired (expiry is the end of its UTC day). */
  async verify(presented: string, now: Date): Promise<Principal | undefined> {
    if (!presented.startsWith(keyPrefix) || presented.length > maxApiKeyLength) return undefined;
    const digest = sha256(presented);
    await this.load();
    const record = this.byHash?.get(digest.toString('hex'));
    if (!record || !timingSafeEqual(record.hash, digest)) return undefined;
    if (record.revoked_at !== null) return undefined;
    if (now.getTime() >= Date.parse(`${record.expires_on}T00:00:00Z`) + 86_400_000) return undefined;
    return { keyId: record.id, organizationId: record.organization_id, createdAt: new Date(record.created_at) };
  }

  private forget(): void {
    this.version++;
    this.byHash = undefined;
  }

  private async load(): Promise<ApiKeyRecord[]> {
    while (!this.byHash) {
      const version = this.version;
      const rows = await this.state.read(async (conn) =>
        (
          await conn.runAndReadAll(
            `SELECT id, organization_id, name, prefix, hash, strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ'), strftime(expires_on, '%Y-%m-%d'),
                    strftime(revoked_at, '%Y-%m-%dT%H:%M:%S.%gZ') FROM state.api_keys ORDER BY created_at, id`,
          )
        ).getRowsJS(),
      );
      if (version !== this.version) continue;
      this.byHash = new Map(
        rows.map((r) => [
          String(r[4]),
          {
            id: String(r[0]),
            organization_id: String(r[1]),
            name: String(r[2]),
            prefix: String(r[3]),
            hash: Buffer.from(String(r[4]), 'hex'),
            created_at: String(r[5]),
            expires_on: String(r[6]),
            revoked_at: r[7] === null ? null : String(r[7]),
          },
        ]),
      );
    }
    return [...this.byHash.values()].map(({ hash: _hash, ...record }) => record);
  }
}
