/**
 * Korean → English technical terms, so a Korean question finds an English post
 * (`엔진엑스 웹소켓 연결이 끊겨요` → nginx, websocket, connection, disconnect). Two kinds
 * of entries: transliterations of names (`레디스` → redis) and everyday technical words
 * (`누수` → leak). A Korean word is read from its start, longest entry first, entry after
 * entry, up to the first syllable no entry starts at (`메모리누수를` → `메모리`, `누수`; the
 * particle `를` is left over), so an entry never matches inside another word (`리포트`
 * is not `포트`). A one-syllable entry (`깃`, `힙`) matches only at the start of a word. English terms of four letters or
 * more also match as prefixes (`비교` → `compar` finds compare, compared, comparison).
 *
 * Kept small on purpose: common terms of the field, not a dictionary. Add a line when a
 * Korean question misses an English post that uses the word.
 */

const TABLE: Record<string, string> = {
  // names, as Korean writers spell them
  엔진엑스: 'nginx', 레디스: 'redis', 도커: 'docker', 쿠버네티스: 'kubernetes', 깃: 'git', 깃허브: 'github',
  깃랩: 'gitlab', 포스트그레스: 'postgres postgresql', 포스트그레스큐엘: 'postgresql postgres', 마이에스큐엘: 'mysql',
  에스큐엘라이트: 'sqlite', 시퀄라이트: 'sqlite', 카프카: 'kafka', 캐디: 'caddy', 노드: 'node nodejs',
  노드제이에스: 'nodejs node', 파이썬: 'python', 자바스크립트: 'javascript', 타입스크립트: 'typescript', 러스트: 'rust',
  고랭: 'golang', 자바: 'java', 리눅스: 'linux', 우분투: 'ubuntu', 데비안: 'debian', 시스템디: 'systemd',
  립그렙: 'ripgrep', 그렙: 'grep', 테라폼: 'terraform', 프로메테우스: 'prometheus', 그라파나: 'grafana',
  앤서블: 'ansible', 티먹스: 'tmux', 와이어가드: 'wireguard', 포드맨: 'podman', 컬: 'curl', 웹소켓: 'websocket',
  빌드킷: 'buildkit', 피지바운서: 'pgbouncer', 키위: 'kiwi', 메캅: 'mecab', 미캅: 'mecab', 엘라스틱서치: 'elasticsearch',
  오픈서치: 'opensearch', 크롬: 'chrome', 데브툴: 'devtools', 에이치에이프록시: 'haproxy', 배시: 'bash', 셸: 'shell',
  쉘: 'shell', 깃허브액션: 'github actions', 도커파일: 'dockerfile', 에스에스에이치: 'ssh', 브이에이트: 'v8',
  // everyday technical words
  서버: 'server', 서비스: 'service', 프록시: 'proxy', 리버스: 'reverse', 연결: 'connection connect', 커넥션: 'connection',
  접속: 'connection connect', 타임아웃: 'timeout', 시간초과: 'timeout', 끊: 'disconnect drop close idle',
  메모리: 'memory', 누수: 'leak', 힙: 'heap', 스냅샷: 'snapshot', 캐시: 'cache caching', 캐싱: 'caching cache',
  정책: 'policy policies', 축출: 'eviction evict', 퇴출: 'eviction evict', 디스크: 'disk', 가득: 'full', 용량: 'disk space',
  장애: 'incident outage failure', 사고: 'incident', 복제: 'replication replica', 슬롯: 'slot', 로그: 'log logs',
  백업: 'backup', 복구: 'recovery restore', 설정: 'config configuration setup settings', 구성: 'configuration setup',
  설치: 'install installation', 보안: 'security', 강화: 'hardening harden', 체크리스트: 'checklist',
  샌드박스: 'sandbox sandboxing', 권한: 'permission privileges', 빌드: 'build', 액션: 'actions', 파이프라인: 'pipeline',
  배포: 'deploy deployment', 커밋: 'commit', 버그: 'bug regression', 회귀: 'regression', 바이섹트: 'bisect',
  이진탐색: 'bisect binary', 검색: 'search', 비교: 'compar vs', 후기: 'review', 리뷰: 'review', 테스트: 'test tests testing',
  먼저: 'first', 작성: 'write writing', 에이전트: 'agent agents', 코딩: 'coding', 패키지: 'package packaging',
  관리자: 'manager', 매니저: 'manager', 가상환경: 'virtualenv venv', 인증서: 'certificate certificates tls',
  자동: 'automatic automatically', 발급: 'issuance obtain', 갱신: 'renew renewal', 도메인: 'domain',
  운영: 'production', 프로덕션: 'production', 데이터베이스: 'database databases', 트랜잭션: 'transaction', 풀링: 'pooling',
  풀: 'pool pooling', 포워딩: 'forwarding', 위험: 'pitfalls risk', 함정: 'pitfalls', 소켓: 'socket', 파일: 'file',
  문서: 'documentation docs', 마크다운: 'markdown', 웹사이트: 'website site', 사이트: 'site', 큐: 'queue', 세션: 'session',
  쿼리: 'query', 색인: 'index', 인덱스: 'index', 형태소: 'morphological morpheme', 분석기: 'analyzer tokenizer',
  토크나이저: 'tokenizer', 한국어: 'korean', 자연어: 'nlp', 성능: 'performance', 지연: 'latency', 재시작: 'restart',
  프로세스: 'process', 컨테이너: 'container', 이미지: 'image', 레이어: 'layer', 의존성: 'dependency dependencies',
  잠금파일: 'lockfile', 락파일: 'lockfile', 스크립트: 'script', 디버깅: 'debugging debug', 업그레이드: 'upgrade',
  마이그레이션: 'migration migrate', 모니터링: 'monitoring', 알림: 'alert', 인증: 'auth authentication', 비밀번호: 'password',
  키: 'key keys', 터널: 'tunnel', 방화벽: 'firewall', 포트: 'port', 요청: 'request', 응답: 'response',
};

const ENTRIES = new Map(Object.entries(TABLE).map(([korean, english]) => [korean, english.split(' ')]));
const LONGEST = Math.max(...[...ENTRIES.keys()].map((k) => [...k].length));

/**
 * The English terms of a Korean run, read entry after entry from its start.
 *
 * @param run A run of Hangul syllables (one word, or its Hangul part).
 * @example
 * englishTerms('메모리누수를') // ['memory', 'leak']
 */
export function englishTerms(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  let at = 0;
  while (at < chars.length) {
    let found = 0;
    for (let length = Math.min(LONGEST, chars.length - at); length >= 1 && found === 0; length--) {
      if (length === 1 && at > 0) break;
      const english = ENTRIES.get(chars.slice(at, at + length).join(''));
      if (english) {
        out.push(...english);
        found = length;
      }
    }
    if (found === 0) break;
    at += found;
  }
  return out;
}

/** How many entries the table holds (for the docs). */
export const SYNONYM_ENTRIES = ENTRIES.size;
