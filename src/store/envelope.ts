/**
 * The bytes a store holds for a session: a versioned envelope around the saved session, sealed with AES-256-GCM
 * (node:crypto) when a key is configured. The session key is bound in as associated data, so bytes copied under
 * another key do not open. Layout: "MBTS", version, mode (1 sealed, 0 plain), then for sealed: 12-byte IV,
 * 16-byte tag, ciphertext. A sealed body is the session's JSON gzipped (storage of many origins compresses well);
 * a plain one (`allowPlaintext`) is the JSON as it is, so whoever allowed it can read what is stored.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { SavedSession } from './types.js';

const MAGIC = Buffer.from('MBTS');
export const ENVELOPE_VERSION = 1;
const SEALED = 1;
const PLAIN = 0;
const HEADER = MAGIC.length + 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Why stored bytes could not be read back: said to the model in a notice, so never the bytes themselves. */
export class UnreadableState extends Error {}

/**
 * A 32-byte key from the configured secret: 64 hex digits or base64 of 32 bytes are used as they are; any
 * other string is a passphrase, stretched with scrypt (once per process).
 */
export function storeKey(secret: string): Buffer {
  const text = secret.trim();
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  const decoded = /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (decoded?.length === 32) return decoded;
  return scryptSync(text, 'mastra-browser-toolset session store', 32);
}

function header(mode: number): Buffer {
  return Buffer.concat([MAGIC, Buffer.from([ENVELOPE_VERSION, mode])]);
}

/** The envelope of `saved` for `sessionKey`: sealed with `key`, or plain when there is none. */
export function seal(saved: SavedSession, sessionKey: string, key: Buffer | undefined): Uint8Array {
  const json = Buffer.from(JSON.stringify(saved));
  if (!key) return Buffer.concat([header(PLAIN), json]);
  const body = gzipSync(json);
  const head = header(SEALED);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.concat([head, Buffer.from(sessionKey)]));
  const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([head, iv, cipher.getAuthTag(), sealed]);
}

/** The session inside `bytes`; throws `UnreadableState` saying why when it cannot be read. */
export function open(bytes: Uint8Array, sessionKey: string, key: Buffer | undefined): SavedSession {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < HEADER || !data.subarray(0, MAGIC.length).equals(MAGIC)) throw new UnreadableState('it is not a saved browser session (damaged or cut short)');
  const version = data[MAGIC.length]!;
  if (version !== ENVELOPE_VERSION) throw new UnreadableState(`it was saved in another format (version ${version}; this version reads ${ENVELOPE_VERSION})`);
  const mode = data[MAGIC.length + 1]!;
  let json: Buffer;
  if (mode === PLAIN) {
    json = data.subarray(HEADER);
  } else if (mode === SEALED) {
    if (!key) throw new UnreadableState('it is encrypted and this process has no key for the session store');
    if (data.length < HEADER + IV_BYTES + TAG_BYTES) throw new UnreadableState('it is cut short');
    const iv = data.subarray(HEADER, HEADER + IV_BYTES);
    const tag = data.subarray(HEADER + IV_BYTES, HEADER + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.concat([data.subarray(0, HEADER), Buffer.from(sessionKey)]));
    decipher.setAuthTag(tag);
    let body: Buffer;
    try {
      body = Buffer.concat([decipher.update(data.subarray(HEADER + IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new UnreadableState('it cannot be decrypted with this key (another key, or damaged bytes)');
    }
    try {
      json = gunzipSync(body);
    } catch {
      throw new UnreadableState('its contents are damaged');
    }
  } else {
    throw new UnreadableState(`it uses an unknown protection (${mode})`);
  }
  try {
    const saved = JSON.parse(json.toString('utf8')) as SavedSession;
    if (!Array.isArray(saved.tabs) || typeof saved.active !== 'number' || !Array.isArray(saved.notices)) throw new Error('shape');
    return saved;
  } catch {
    throw new UnreadableState('its contents are damaged');
  }
}
