/**
 * Fake MSS mssBizService_v2 (getbizList_v2): XML only, notices with HTML bodies in
 * CDATA and fileName/fileUrl repeated per attachment; startDate/endDate filter the
 * registration date.
 */
import { plain, xml, type FakeReply, type FakeRequest } from '../wire.ts';
import { checkServiceKey } from './common.ts';

/** Real base path of the provider, below its host. */
export const MSS_BASE = '/1421000/mssBizService_v2';

const LONG = `<p>${'중소기업 수출 바우처 지원 사업 안내 문장입니다. '.repeat(120)}</p>`;

const NOTICES = [
  { itemId: '1001', registered: '2026-11-18', title: '2027년 수출바우처 사업 참여기업 모집 공고', dataContents: `<p>수출바우처&nbsp;사업에 참여할 <b>중소기업</b>을 모집합니다.</p><script>alert(1)</script><br/>문의: 1357`, applicationStartDate: '2026-11-20', applicationEndDate: '2026-12-15', writerName: '김담당', writerPosition: '해외시장과', writerPhone: '044-204-7000', writerEmail: 'export@mss.go.kr', viewUrl: 'https://www.mss.go.kr/site/smba/ex/bbs/View.do?cbIdx=310&bcIdx=1001', files: [['공고문.hwp', 'https://www.mss.go.kr/common/board/Download.do?bcIdx=1001&streFileNm=a.hwp'], ['신청서.docx', 'https://www.mss.go.kr/common/board/Download.do?bcIdx=1001&streFileNm=b.docx']] },
  { itemId: '1002', registered: '2026-11-10', title: '스마트공장 구축 지원사업 공고', dataContents: LONG, applicationStartDate: '2026-11-11', applicationEndDate: '2026-11-30', writerName: '이담당', writerPosition: '스마트제조혁신과', writerPhone: '044-204-7100', writerEmail: 'smart@mss.go.kr', viewUrl: 'https://www.mss.go.kr/site/smba/ex/bbs/View.do?cbIdx=310&bcIdx=1002', files: [['공고문.pdf', 'https://www.mss.go.kr/common/board/Download.do?bcIdx=1002&streFileNm=c.pdf']] },
  { itemId: '1003', registered: '2026-10-02', title: '소상공인 경영개선 지원 안내', dataContents: '소상공인 &lt;경영개선&gt; 지원', applicationStartDate: '2026-10-05', applicationEndDate: '2026-10-31', writerName: '박담당', writerPosition: '소상공인정책과', writerPhone: '044-204-7200', writerEmail: '', viewUrl: 'https://www.mss.go.kr/site/smba/ex/bbs/View.do?cbIdx=310&bcIdx=1003', files: [] },
];

/** Handle one MSS request. */
export function mss(req: FakeRequest): FakeReply {
  if (req.path !== `${MSS_BASE}/getbizList_v2`) return plain('Not Found', 404);
  const keyError = checkServiceKey(req);
  if (keyError) return keyError;
  const start = req.query.get('startDate') ?? '0000-00-00';
  const end = req.query.get('endDate') ?? '9999-99-99';
  const found = NOTICES.filter((n) => n.registered >= start && n.registered <= end);
  const pageNo = Number(req.query.get('pageNo') ?? 1);
  const numOfRows = Number(req.query.get('numOfRows') ?? 10);
  const item = found.slice((pageNo - 1) * numOfRows, pageNo * numOfRows).map(({ files, registered: _r, dataContents, ...rest }) => ({
    ...rest,
    dataContents: { __cdata: dataContents },
    ...(files.length ? { fileName: files.map((f) => f[0]), fileUrl: files.map((f) => f[1]) } : {}),
  }));
  // As data.go.kr does: a page with nothing on it is code 03 with no body.
  if (item.length === 0) return xml({ response: { header: { resultCode: '03', resultMsg: 'NO_DATA' } } });
  const body = { items: { item }, numOfRows, pageNo, totalCount: found.length };
  // The shape the wire notes give (header codes unconfirmed): an empty `<header/>`.
  if (req.mode === 'empty-header') return xml({ response: { header: '', body } });
  // Text written with XML character references (decimal and hex), as XML allows anywhere in text.
  if (req.mode === 'char-refs') {
    const reply = xml({ response: { header: { resultCode: '00', resultMsg: 'NORMAL SERVICE.' }, body } });
    return { ...reply, body: String(reply.body).replace('<title>2027년 ', '<title>2027&#45380; ').replace('<writerName>김담당', '<writerName>&#xAE40;담당').replace('바우처 사업 참여기업', '바우처 사업 &#39;참여기업&#39;') };
  }
  return xml({ response: { header: { resultCode: '00', resultMsg: 'NORMAL SERVICE.' }, body } });
}
