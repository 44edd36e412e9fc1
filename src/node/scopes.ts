import { catalog } from '../catalog';

/** Every scope some node operation needs: the OAuth2 credential asks for these by default. */
export const ALL_NODE_SCOPES = [...new Set(catalog.map((e) => e.scope).filter((s): s is string => Boolean(s)))].sort();
