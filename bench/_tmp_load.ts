import autocannon from "autocannon";
const [url, cookie, seconds] = process.argv.slice(2);
const r = await autocannon({ url: url!, connections: 10, duration: Number(seconds ?? 5), headers: cookie ? { cookie } : {} });
console.log(JSON.stringify({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors }));
