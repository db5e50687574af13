/**
 * The server's bearer tokens (docs/semantics.md, Server). A token is `cl_<id>_<secret>`: the id
 * names it in lists and revocations (it is not secret), the secret is 32 random bytes. The store
 * keeps only the SHA-256 of each secret, in a JSON file written atomically with mode 0600, so that
 * revocations survive a restart and the file never holds a usable token. Checking a token looks its
 * id up and compares the hashes with crypto.timingSafeEqual, so the time taken says nothing about
 * how much of a secret was right.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readStateFile, writeStateFile } from '../platform/state-file.js';

/** What is known of a token, the secret aside (what `list` shows). */
export interface TokenInfo {
  id: string;
  label: string;
  /** A demo token is rate-limited (the server's `demoRate`). */
  demo: boolean;
  /** ISO-8601 times. */
  created: string;
  revoked?: string;
}

interface StoredToken extends TokenInfo {
  /** Hex SHA-256 of the secret. */
  sha256: string;
}

/** Why a presented token was refused. */
export type TokenRefusal = 'missing' | 'malformed' | 'unknown' | 'revoked';

export type TokenCheck = { ok: true; token: TokenInfo } | { ok: false; refusal: TokenRefusal };

const TOKEN_FORM = /^cl_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
const FILE_VERSION = 1;

const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();
const withoutHash = ({ sha256: _, ...info }: StoredToken): TokenInfo => info;

/** The bearer tokens of a server, kept in a file (or in memory when no file is given). */
export class TokenStore {
  readonly #tokens = new Map<string, StoredToken>();
  #writing: Promise<void> = Promise.resolve();

  private constructor(readonly file: string | undefined) {}

  /** Opens the store of `file` (created on the first issue), or an in-memory store. */
  static async open(file?: string): Promise<TokenStore> {
    const store = new TokenStore(file);
    if (file === undefined) return store;
    const text = await readStateFile(file);
    if (text === undefined) return store;
    let parsed: { version?: unknown; tokens?: unknown };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${file}: not a chainlens token file (not JSON)`);
    }
    if (parsed.version !== FILE_VERSION || !Array.isArray(parsed.tokens)) throw new Error(`${file}: not a chainlens token file (version ${String(parsed.version)})`);
    for (const [k, entry] of (parsed.tokens as StoredToken[]).entries()) {
      if (typeof entry?.id !== 'string' || !/^[0-9a-f]{12}$/.test(entry.id) || typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256)) {
        throw new Error(`${file}: token ${k + 1} is damaged (id and sha256 expected)`);
      }
      store.#tokens.set(entry.id, { id: entry.id, label: String(entry.label ?? ''), demo: entry.demo === true, created: String(entry.created), revoked: entry.revoked, sha256: entry.sha256 });
    }
    return store;
  }

  /** Every token, oldest first (revoked ones too, marked). */
  list(): TokenInfo[] {
    return [...this.#tokens.values()].map(withoutHash);
  }

  /** Whether some token is not revoked. */
  get hasActive(): boolean {
    return [...this.#tokens.values()].some((t) => t.revoked === undefined);
  }

  /** Issues a token; the returned text is the only copy there will ever be. */
  async issue(options: { label?: string; demo?: boolean } = {}): Promise<{ token: string; info: TokenInfo }> {
    let id: string;
    do id = randomBytes(6).toString('hex');
    while (this.#tokens.has(id));
    const secret = randomBytes(32).toString('base64url');
    const stored: StoredToken = {
      id, label: options.label ?? '', demo: options.demo === true, created: new Date().toISOString(), sha256: digest(secret).toString('hex'),
    };
    this.#tokens.set(id, stored);
    await this.#save();
    return { token: `cl_${id}_${secret}`, info: withoutHash(stored) };
  }

  /** Revokes the token with this id (or this token text); it is refused from the next request on. */
  async revoke(idOrToken: string): Promise<TokenInfo> {
    const id = TOKEN_FORM.exec(idOrToken)?.[1] ?? idOrToken;
    const stored = this.#tokens.get(id);
    if (!stored) throw new Error(`no token with id ${JSON.stringify(id.slice(0, 64))}`);
    stored.revoked ??= new Date().toISOString();
    await this.#save();
    return withoutHash(stored);
  }

  /** Checks a presented token (the text after `Bearer `). */
  check(token: string | undefined): TokenCheck {
    if (token === undefined || token === '') return { ok: false, refusal: 'missing' };
    const form = TOKEN_FORM.exec(token);
    if (!form) return { ok: false, refusal: 'malformed' };
    const stored = this.#tokens.get(form[1]!);
    if (!stored || !timingSafeEqual(digest(form[2]!), Buffer.from(stored.sha256, 'hex'))) return { ok: false, refusal: 'unknown' };
    if (stored.revoked !== undefined) return { ok: false, refusal: 'revoked' };
    return { ok: true, token: withoutHash(stored) };
  }

  /** Writes the file (temporary name, then rename: a reader never sees half a file); writes queue. */
  #save(): Promise<void> {
    const file = this.file;
    if (file === undefined) return Promise.resolve();
    const text = JSON.stringify({ version: FILE_VERSION, tokens: [...this.#tokens.values()] }, null, 2) + '\n';
    this.#writing = this.#writing.catch(() => undefined).then(() => writeStateFile(file, text, 0o600));
    return this.#writing;
  }
}
