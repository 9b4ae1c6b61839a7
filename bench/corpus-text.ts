/**
 * Word pools and snippet templates for the benchmark corpus: enough variety that the
 * posts read like the real ones (tools, flags, symptoms, code in seven languages).
 */

export const MODELS = ['Claude Opus 4.1', 'GPT-5', 'Gemini 2.5 Pro', 'Llama 4 Maverick', 'Qwen3 Coder', 'DeepSeek V3.1'];

export const TOOLS = [
  'nginx', 'PostgreSQL', 'Redis', 'Docker', 'Kubernetes', 'systemd', 'Git', 'OpenSSH', 'Node.js', 'Python',
  'Terraform', 'Prometheus', 'Grafana', 'SQLite', 'Caddy', 'HAProxy', 'Ansible', 'GitHub Actions', 'tmux', 'rsync',
  'WireGuard', 'Kafka', 'MySQL', 'Vault', 'Traefik', 'containerd', 'Podman', 'ripgrep', 'jq', 'curl',
];

export const ASPECTS = [
  'timeouts', 'connection pooling', 'log rotation', 'memory limits', 'TLS termination', 'rate limiting', 'backups',
  'zero-downtime deploys', 'health checks', 'cache invalidation', 'retries', 'file descriptors', 'DNS caching',
  'graceful shutdown', 'secrets handling', 'replication lag', 'disk usage', 'cold starts', 'build caching', 'observability',
];

export const SYMPTOMS = [
  '502 Bad Gateway', 'slow queries', 'OOM kills', 'stale reads', 'hanging deploys', 'flaky tests', 'clock skew',
  'too many open files', 'connection resets', 'high p99 latency', 'lost writes', 'certificate errors',
];

export const STORIES = ['cut our bill in half', 'survived a traffic spike', 'migrated without downtime', 'lost a day of data', 'halved build times', 'debugged a memory leak'];

export const SUBJECTS = [
  'agents write tests first', 'you run SQLite in production', 'teams pin every dependency', 'logs be structured by default',
  'you self-host your CI', 'services retry on every error', 'configs live in environment variables', 'monorepos win',
];

export const FLAGS = ['max_connections', 'keepalive_timeout', 'work_mem', 'maxmemory', 'worker_processes', 'proxy_read_timeout', 'shared_buffers', 'ulimit -n', 'GOMAXPROCS', 'NODE_OPTIONS'];

export const OPENERS = [
  'In short, {tool} handles {aspect} well once you set `{flag}` explicitly; the defaults are tuned for a laptop, not for production.',
  'The answer is yes, with one condition: measure {aspect} first, then change `{flag}`, and keep the old value in version control.',
  'Most {symptom} reports with {tool} come from {aspect}, not from the application, so check `{flag}` before anything else.',
  'Use {tool} for {aspect} only when you can monitor it; without metrics the first sign of trouble is {symptom}.',
];

export const SENTENCES = [
  'Set `{flag}` to {num} and restart {tool}; the change takes effect only for new connections.',
  'We saw {symptom} every time the load doubled, and the logs pointed at {aspect}.',
  'The documentation of {tool} mentions {aspect} in one paragraph, which is easy to miss.',
  'Run the check again after {num} seconds, because {tool} applies the setting lazily.',
  'A smaller value of `{flag}` trades throughput for predictable latency.',
  'Keep the configuration in Git so that a rollback is one commit away.',
  'If you run more than one instance, {aspect} has to be coordinated, or each node will disagree.',
  'On a two-core machine the difference was about {num} percent, which is within the noise of a single run.',
  'Alerts on {symptom} are more useful than alerts on CPU, because users feel the former.',
  'Prefer `{flag}` over a wrapper script: it survives upgrades of {tool}.',
  'Test the failure path too: stop {tool} halfway and see whether {aspect} recovers on its own.',
  'The fix was small, but finding it took {num} minutes of reading `journalctl` output.',
  'Nothing here is specific to {tool}; the same reasoning applies to any service with {aspect}.',
  'Write down the value you chose and why, next to the setting, for whoever reads it next.',
];

export const BULLETS = [
  'check `{flag}` on every host', 'watch for {symptom} in the first hour', 'document {aspect} in the runbook',
  'pin the {tool} version', 'add a health check that exercises {aspect}', 'keep one canary instance on the old config',
  'graph p50 and p99 separately', 'rehearse the rollback once', 'set alerts before the change, not after',
];

export const LANGS = ['bash', 'ts', 'yaml', 'nginx', 'sql', 'python', 'json'] as const;

export const CODE: Record<(typeof LANGS)[number], string[]> = {
  bash: [
    'sudo systemctl restart {svc}\njournalctl -u {svc} --since "10 min ago" | tail -n {num}',
    'for host in web1 web2 web3; do\n  ssh "$host" "grep -c {word} /var/log/{svc}.log"\ndone',
    'export {env}={num}\ncurl -fsS http://127.0.0.1:{port}/health && echo ok',
  ],
  ts: [
    'const limit = Number(process.env.{env} ?? {num});\nexport async function fetchWithRetry(url: string): Promise<Response> {\n  for (let i = 0; i < 3; i++) {\n    const res = await fetch(url);\n    if (res.ok) return res;\n  }\n  throw new Error(`failed after retries: ${url}`);\n}',
    'import { setTimeout as sleep } from "node:timers/promises";\nawait sleep({num});\nconsole.log("{word} ready on port", {port});',
  ],
  yaml: [
    'services:\n  {svc}:\n    image: {svc}:latest\n    ports:\n      - "{port}:{port}"\n    restart: unless-stopped',
    'jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm test',
  ],
  nginx: [
    'location /api/ {\n    proxy_pass http://127.0.0.1:{port};\n    proxy_read_timeout {num}s;\n    proxy_set_header Host $host;\n}',
    'upstream {svc} {\n    server 127.0.0.1:{port} max_fails=3;\n    keepalive {num};\n}',
  ],
  sql: [
    'SELECT {word}_id, count(*) AS n\nFROM events\nWHERE created_at > now() - interval \'{num} minutes\'\nGROUP BY 1\nORDER BY n DESC\nLIMIT 20;',
    'CREATE INDEX CONCURRENTLY idx_{word}_created ON {word}s (created_at);\nANALYZE {word}s;',
  ],
  python: [
    'import time\n\ndef wait_for(check, timeout={num}):\n    deadline = time.monotonic() + timeout\n    while time.monotonic() < deadline:\n        if check():\n            return True\n        time.sleep(0.5)\n    return False',
    'with open("/var/log/{svc}.log") as f:\n    errors = [line for line in f if "{word}" in line]\nprint(len(errors), "matches")',
  ],
  json: [
    '{\n  "name": "{word}",\n  "port": {port},\n  "timeoutMs": {num},\n  "retries": 3\n}',
    '{\n  "service": "{svc}",\n  "limits": { "memory": "{num}Mi", "cpu": "500m" }\n}',
  ],
};

export const WORDS = ['orders', 'users', 'session', 'invoice', 'upload', 'report', 'queue', 'worker', 'cache', 'search'];
export const SERVICES = ['api', 'web', 'worker', 'postgres', 'redis', 'nginx', 'scheduler'];
export const ENVS = ['MAX_CONNECTIONS', 'REQUEST_TIMEOUT_MS', 'POOL_SIZE', 'CACHE_TTL', 'LOG_LEVEL_NUM'];

export const COMMENT_BODIES = [
  'This matched what I saw on {tool}; setting `{flag}` fixed {symptom} for us.',
  'A correction: {tool} changed the default of `{flag}` in a recent release, so check your version first.',
  'I disagree with the conclusion. {aspect} depends more on the workload than on {tool}.',
  'One more data point: with {num} instances the effect on {aspect} was negligible.',
  'Worth adding that {symptom} can also come from the load balancer, not only from {tool}.',
];
