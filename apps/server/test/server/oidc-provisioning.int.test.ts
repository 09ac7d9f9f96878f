/**
 * OIDC provisioning on the durable account stores: concurrent first logins of
 * one identity (double click, two instances) end in one account, and an
 * identity whose email another account owns is refused, whatever the store's
 * unique indexes answer to the losers (SQLite in a file, PostgreSQL in its own schema).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { OidcLoginError, provisionOidcUser, type OidcProviderOptions } from "@deerflow/gateway";
import type { AccountStore } from "@deerflow/runtime";
import { PostgresAccountStore } from "@deerflow/runtime/postgres";
import { SqliteAccountStore } from "@deerflow/runtime/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchemas, requirePostgres, uniqueName } from "../support/services.js";

const provider: OidcProviderOptions = { displayName: "Corp", issuer: "https://idp.example.com", clientId: "df" };
const identity = { provider: "corp", subject: "sub-1", email: "ada@example.com", emailVerified: true };

let databaseUrl: string | null = null;
let dir = "";
const schemas: string[] = [];

beforeAll(async () => {
  databaseUrl = await requirePostgres();
  dir = await mkdtemp(path.join(tmpdir(), "oidc-provisioning-"));
});
afterAll(async () => {
  if (databaseUrl !== null && schemas.length > 0) await dropSchemas(databaseUrl, schemas);
  await rm(dir, { recursive: true, force: true });
});

/** Two connections to one database, as two server instances would have. */
async function twoStores(kind: "sqlite" | "postgres"): Promise<[AccountStore, AccountStore] | undefined> {
  if (kind === "sqlite") {
    const file = path.join(dir, `${uniqueName("acct")}.sqlite`);
    return [new SqliteAccountStore({ path: file }), new SqliteAccountStore({ path: file })];
  }
  if (databaseUrl === null) return undefined;
  const schema = uniqueName("oidc_prov");
  schemas.push(schema);
  const a = new PostgresAccountStore({ connectionString: databaseUrl, schema });
  const b = new PostgresAccountStore({ connectionString: databaseUrl, schema });
  await a.setup();
  await b.setup();
  return [a, b];
}

describe.each(["sqlite", "postgres"] as const)("provisionOidcUser on %s", (kind) => {
  it("concurrent first logins of one identity on two instances make one account", async (ctx) => {
    const stores = await twoStores(kind);
    if (stores === undefined) return ctx.skip();
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => provisionOidcUser(stores[i % 2] as AccountStore, provider, identity)),
      );
      expect(new Set(results.map((r) => r.user.userId)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(await stores[0].countUsers()).toBe(1);
      expect((await stores[1].getUserByOAuth("corp", "sub-1"))?.email).toBe("ada@example.com");
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("a new identity racing for an email another identity takes gets ACCOUNT_EXISTS, not a store error", async (ctx) => {
    const stores = await twoStores(kind);
    if (stores === undefined) return ctx.skip();
    try {
      const settled = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          provisionOidcUser(stores[i % 2] as AccountStore, provider, { ...identity, subject: `sub-${i}` }),
        ),
      );
      const won = settled.filter((s) => s.status === "fulfilled");
      expect(won).toHaveLength(1);
      for (const s of settled) {
        if (s.status === "rejected") {
          expect(OidcLoginError.isInstance(s.reason)).toBe(true);
          expect((s.reason as OidcLoginError).code).toBe("ACCOUNT_EXISTS");
        }
      }
      expect(await stores[0].countUsers()).toBe(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
