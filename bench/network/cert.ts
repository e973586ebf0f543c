/**
 * A throwaway self-signed certificate for the stand-in internet's TLS side, made with Node's crypto alone
 * so the benchmark needs no openssl binary. Chromium is started with --ignore-certificate-errors, so the
 * certificate only has to parse: no names, no extensions, valid for a few days around now.
 *
 * Node can sign but has no API to build a certificate, so the few DER structures are written by hand
 * (X.509 as in RFC 5280, section 4.1).
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** One DER element: tag, length (short or long form), content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const length = body.length;
  let header: Buffer;
  if (length < 0x80) header = Buffer.from([tag, length]);
  else if (length < 0x100) header = Buffer.from([tag, 0x81, length]);
  else header = Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([header, body]);
}

const sequence = (...content: Buffer[]) => der(0x30, ...content);
const set = (...content: Buffer[]) => der(0x31, ...content);

/** An OBJECT IDENTIFIER from its dotted form (every arc here is below 2^14, so at most two bytes each). */
function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    if (arc >= 0x80) bytes.push(0x80 | (arc >> 7));
    bytes.push(arc & 0x7f);
  }
  return der(0x06, Buffer.from(bytes));
}

/** UTCTime, YYMMDDHHMMSSZ. */
function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  return der(0x17, Buffer.from(text, 'ascii'));
}

const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));

export interface Certificate {
  key: string;
  cert: string;
}

export function selfSignedCertificate(commonName = 'stand-in internet'): Certificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = sequence(set(sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(commonName, 'utf8')))));
  // A positive serial in minimal DER: the top bit clear (not negative) and the next one set, since a leading zero
  // byte before a byte under 0x80 is "illegal padding" to OpenSSL (one certificate in 256 before this).
  const serial = randomBytes(8);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  const now = Date.now();
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))), // version 3
    der(0x02, serial),
    ECDSA_WITH_SHA256,
    name, // issuer: itself
    sequence(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 7 * 86_400_000))),
    name, // subject
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  // For EC keys Node returns the DER-encoded ECDSA signature X.509 expects; a BIT STRING starts with its count of unused bits.
  const signature = der(0x03, Buffer.from([0]), sign('sha256', tbs, privateKey));
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, signature);
  const pem = certificate.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n?$/, '\n');
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${pem}-----END CERTIFICATE-----\n`,
  };
}
