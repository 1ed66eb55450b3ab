import { lazy } from '../../lib/lazy.ts';

/** @simplewebauthn/server (about 25 MB with its CBOR and ASN.1 parsers), loaded with the first device ceremony. */
export const loadWebAuthn = lazy(() => import('@simplewebauthn/server'));
