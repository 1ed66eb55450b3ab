import type { RuntimeConfig } from '@passgate/contract';
import { api, setApiBaseUrl } from '../api/client.ts';

let current: RuntimeConfig | null = null;

/** In the Vite dev server the API is reached through its proxy, so only the path of the API URL is used. */
function apiBase(apiUrl: string): string {
  if (!import.meta.env.DEV) return apiUrl;
  try {
    return new URL(apiUrl, window.location.origin).pathname;
  } catch {
    return apiUrl;
  }
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
  setApiBaseUrl(apiBase(config.apiUrl));
}

/** The configuration the server put into the page (packages/server/src/spa-head.ts), if it did. */
function configInPage(): RuntimeConfig | null {
  const text = document.getElementById('passgate-config')?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as RuntimeConfig;
  } catch {
    return null;
  }
}

/**
 * Read once at start, so nothing environment-specific is baked into the bundle: from the page when
 * the server put it there (no request before the first screen's own), else GET /api/v1/config
 * (the Vite dev server's page has none).
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const config = configInPage() ?? (await api.get<RuntimeConfig>('/v1/config'));
  setRuntimeConfig(config);
  return config;
}

export function runtimeConfig(): RuntimeConfig {
  if (!current) throw new Error('The runtime configuration is not loaded yet');
  return current;
}
