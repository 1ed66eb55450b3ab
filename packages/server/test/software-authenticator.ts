import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for server tests: an ES256 (P-256) key pair from node:crypto,
 * answering registration and sign-in options as a browser with a security key would (attestation
 * 'none'). What it produces is verified by the server for real; tests may bend one part of it
 * (origin, challenge, counter, signature) to see the server refuse it.
 */

type CborValue = number | string | Uint8Array | CborValue[] | Map<number | string, CborValue>;

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key: integers, byte and text strings, arrays, maps. */
export function cbor(value: CborValue): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = [...value.entries()];
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  challenge?: string;
  type?: string;
}

export interface AssertionOverrides extends CeremonyOverrides {
  /** The counter to report instead of the next one (a replay reports the last one again). */
  counter?: number;
  /** Changes clientDataJSON after signing it. */
  tamperClientData?: boolean;
  /** Flips a bit of the signature. */
  tamperSignature?: boolean;
  /** False: the authenticator only tested presence, it did not verify the person (no UV flag). */
  userVerified?: boolean;
}

export class SoftwareAuthenticator {
  readonly credentialId: Buffer = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter; stays 0 for an authenticator that does not count. */
  counter = 0;

  constructor(
    readonly origin: string,
    private readonly options: { counts?: boolean; discoverable?: boolean } = {},
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private get rpId(): string {
    return new URL(this.origin).hostname;
  }

  /** The COSE_Key (EC2, ES256, P-256) of the public key. */
  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(new Map<number, CborValue>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return JSON.stringify({ type, challenge, origin, crossOrigin: false });
  }

  /** Answers PublicKeyCredentialCreationOptionsJSON with a RegistrationResponseJSON (fmt 'none'). */
  register(options: { challenge: string }, overrides: CeremonyOverrides = {}) {
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const authData = this.authData(overrides.rpId ?? this.rpId, FLAG_UP | FLAG_UV | FLAG_AT, this.counter, attested);
    const attestationObject = cbor(new Map<string, CborValue>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    const clientDataJSON = this.clientData(overrides.type ?? 'webauthn.create', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['usb'] },
      // A browser answering the credProps extension says whether it made a discoverable credential (a passkey).
      clientExtensionResults: this.options.discoverable === undefined ? {} : { credProps: { rk: this.options.discoverable } },
      authenticatorAttachment: 'cross-platform' as const,
    };
  }

  /** Answers PublicKeyCredentialRequestOptionsJSON with an AuthenticationResponseJSON signed by this key. */
  assert(options: { challenge: string }, overrides: AssertionOverrides = {}, userHandle?: string) {
    if (overrides.counter === undefined && this.options.counts !== false) this.counter += 1;
    const authData = this.authData(overrides.rpId ?? this.rpId, overrides.userVerified === false ? FLAG_UP : FLAG_UP | FLAG_UV, overrides.counter ?? this.counter);
    const clientDataJSON = this.clientData(overrides.type ?? 'webauthn.get', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    if (overrides.tamperSignature) signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0x01, signature.length - 1);
    const sentClientData = overrides.tamperClientData ? clientDataJSON.replace('"crossOrigin":false', '"crossOrigin":false,"extra":1') : clientDataJSON;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(sentClientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle: b64url(userHandle) } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform' as const,
    };
  }
}
