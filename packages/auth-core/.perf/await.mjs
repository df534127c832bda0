const loop = async () => { const t = performance.now(); for (let i = 0; i < 1e6; i++) await Promise.resolve(); return ((performance.now() - t) * 1000 / 1e6).toFixed(3); };
console.log("plain", await loop());
if (process.env.MONGO) { await import("mongodb"); console.log("after mongodb import", await loop()); }
if (process.env.ALS) { const { AsyncLocalStorage } = await import("node:async_hooks"); const a = new AsyncLocalStorage(); a.enterWith(1); console.log("after ALS", await loop()); }
if (process.env.AUTH) { await import("./.perf-main-lib.mjs"); console.log("after auth", await loop()); }
