/**
 * Korean words out of Hangul runs ("캠핑하기를", "주말등산"): the known words they hold, particles and
 * endings off. Ours: npm's Korean tokenizers need a native MeCab or a model fetched at run time.
 */

/** What follows a noun without changing what it names. */
const SUFFIXES = [
  // particles
  ...["이", "가", "을", "를", "은", "는", "과", "와", "도", "만", "의", "에"],
  ...["에서", "에게", "께", "한테", "로", "으로"],
  ...["랑", "이랑", "하고", "이나", "나", "든", "이든", "든지", "까지", "부터", "보다", "처럼", "같은", "등", "및"],
  ...["요", "이요", "며", "이며", "고", "이고", "들", "님", "중", "마다", "위주", "위주로"],
  // "-하다" and what a hobby is done with
  ...["하기", "하는", "하며", "하면서", "함", "해요", "합니다", "했던", "할", "하시는", "하심", "것", "걸", "거"],
  ...["좋아하는", "좋아함", "좋아요", "좋아하심", "즐기는", "즐기기", "즐김", "취미", "생활", "모임", "활동"],
  ...["타기", "타는", "치기", "치는", "보기", "보는", "읽기", "읽는", "찍기", "찍는", "굽기", "굽는"],
  ...["만들기", "만드는", "마시기", "마시는", "키우기", "키우는", "모으기", "모으는", "그리기", "그리는"],
  ...["쓰기", "쓰는", "듣기", "듣는", "가기", "가는", "다니기", "다니는", "가꾸기", "가꾸는", "꾸미기"],
  ...["배우기", "배우는", "먹기", "먹는", "뜨기", "하러", "가다", "하다"],
  // a fan of it
  ...["광", "덕후", "마니아", "매니아", "애호가", "러버", "홀릭", "족"],
  // a department's unit
  ...["팀", "부", "본부", "실", "센터", "그룹", "파트", "부서", "사업부", "담당", "직군"],
];

const MAX_SUFFIX = Math.max(...SUFFIXES.map((s) => s.length));
const suffixes = new Set(SUFFIXES);

export const HANGUL_RUN = "\uac00-\ud7a3";

/** tail[k]: whether run[k, end) is suffixes only (the empty tail is); linear in the run. */
function suffixTails(run: string): Uint8Array {
  const tail = new Uint8Array(run.length + 1);
  tail[run.length] = 1;
  for (let k = run.length - 1; k >= 0; k--) {
    for (let j = k + 1; j <= Math.min(run.length, k + MAX_SUFFIX) && tail[k] === 0; j++) {
      if (tail[j] === 1 && suffixes.has(run.slice(k, j))) tail[k] = 1;
    }
  }
  return tail;
}

/**
 * A splitter over the known `words` (Hangul only): a known word stays whole, else the run is read as known
 * words (two syllables or more), suffixes and unknown syllables, covering the most syllables, then fewest
 * unknown, then fewest pieces. A one-syllable word (책, 빵) counts only alone or before suffixes ("책을"),
 * never inside another ("시간"). A run with no known word loses its suffixes ("서핑을" → 서핑). Linear.
 */
export function createHangulSplitter(words: Iterable<string>): (run: string) => string[] {
  // a word of a phrase that is itself an ending ("별 보기") is no word to find
  const known = new Set([...words].filter((w) => !suffixes.has(w)));
  const longest = Math.max(2, ...[...known].map((w) => w.length));
  return (run) => {
    if (known.has(run)) return [run];
    const tail = suffixTails(run);
    if (known.has(run[0]) && tail[1] === 1) return [run[0]];
    // best reading of run[0, j): syllables covered, unknown syllables, pieces, and the step that reached it
    const n = run.length;
    const cover = new Int32Array(n + 1).fill(-1);
    const unknown = new Int32Array(n + 1);
    const pieces = new Int32Array(n + 1);
    const from = new Int32Array(n + 1);
    const isWord = new Uint8Array(n + 1);
    cover[0] = 0;
    const offer = (i: number, j: number, word: boolean, missing: number) => {
      const c = cover[i] + (word ? j - i : 0);
      const u = unknown[i] + missing;
      const p = pieces[i] + 1;
      if (c > cover[j] || (c === cover[j] && (u < unknown[j] || (u === unknown[j] && p < pieces[j])))) {
        [cover[j], unknown[j], pieces[j], from[j], isWord[j]] = [c, u, p, i, word ? 1 : 0];
      }
    };
    for (let i = 0; i < n; i++) {
      if (cover[i] < 0) continue;
      for (let j = i + 2; j <= Math.min(n, i + longest); j++) if (known.has(run.slice(i, j))) offer(i, j, true, 0);
      if (i > 0)
        for (let j = i + 1; j <= Math.min(n, i + MAX_SUFFIX); j++)
          if (suffixes.has(run.slice(i, j))) offer(i, j, false, 0);
      offer(i, i + 1, false, 1);
    }
    const words: string[] = [];
    for (let j = n; j > 0; j = from[j]) if (isWord[j] === 1) words.push(run.slice(from[j], j));
    if (words.length > 0) return words.reverse();
    if (tail[0] === 1) return [];
    // up to the first place from which only suffixes follow (the run's end at the latest)
    return [run.slice(0, tail.indexOf(1, 1))];
  };
}

/** Whether a Hangul word ends in a consonant (받침), which picks 을 over 를, 과 over 와. */
export function endsInConsonant(word: string): boolean {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  return code >= 0 && code < 11172 && code % 28 !== 0;
}
