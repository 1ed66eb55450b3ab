import type { Usage } from './proc.ts';

/** One operation as the load generator saw it. */
export interface Sample {
  outcome: 'ok' | 'shed' | 'error';
  /** Whole operation, from when it was due to start (open loop) or started (closed loop). */
  ms: number;
  /** The login call alone (sign-ins), or the 503's own request (shed operations). */
  stepMs?: number;
  /** A 503 without Retry-After: overload must tell clients when to come back. */
  noRetryAfter?: boolean;
  error?: string;
}

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface PhaseResult {
  name: string;
  concurrency?: number;
  /** Offered rate of an open-loop phase, per second. */
  offeredRate?: number;
  ok: number;
  errors: number;
  /** 503 answers: overload refused quickly, not failures. */
  shed: number;
  shedWithoutRetryAfter: number;
  perSecond: number;
  perCpuSecond: number;
  latency: Percentiles;
  loginLatency?: Percentiles;
  shedLatency?: Percentiles;
  usage: Usage;
  /** A few distinct error messages, so a failed phase says why. */
  errorSamples: string[];
}

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: p99 of 200 samples is the second-worst, never an interpolated value.
  const at = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.length === 0 ? NaN : sorted[sorted.length - 1]! };
}

export function summarise(name: string, samples: Sample[], usage: Usage, extra: { concurrency?: number; offeredRate?: number } = {}): PhaseResult {
  const ok = samples.filter((s) => s.outcome === 'ok');
  const shed = samples.filter((s) => s.outcome === 'shed');
  const errors = samples.filter((s) => s.outcome === 'error');
  const logins = ok.flatMap((s) => (s.stepMs === undefined ? [] : [s.stepMs]));
  return {
    name,
    ...extra,
    ok: ok.length,
    errors: errors.length,
    shed: shed.length,
    shedWithoutRetryAfter: shed.filter((s) => s.noRetryAfter).length,
    perSecond: ok.length / usage.wallSeconds,
    perCpuSecond: usage.cpuSeconds > 0 ? ok.length / usage.cpuSeconds : NaN,
    latency: percentiles(ok.map((s) => s.ms)),
    ...(logins.length > 0 ? { loginLatency: percentiles(logins) } : {}),
    ...(shed.length > 0 ? { shedLatency: percentiles(shed.map((s) => s.stepMs ?? s.ms)) } : {}),
    usage,
    errorSamples: [...new Set(errors.map((s) => s.error ?? 'unknown'))].slice(0, 3),
  };
}
