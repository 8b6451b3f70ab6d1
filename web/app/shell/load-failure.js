// The message the page shows when the WebAssembly core cannot start.

/** Says why the core did not load and what to do about it. */
export function loadFailureMessage(t, error) {
  const detail = String(error?.message ?? error);
  let advice = 'load.other';
  if (/does not support WebAssembly|no native wasm/i.test(detail)) advice = 'load.noWasm';
  else if (/Content.Security.Policy|wasm-unsafe-eval|Refused to compile/i.test(detail)) advice = 'load.csp';
  else if (/HTTP \d+|Failed to fetch|NetworkError|Load failed/i.test(detail)) advice = 'load.fetch';
  return t('load.failed', { advice: t(advice), detail });
}
