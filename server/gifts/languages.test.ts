import fc from "fast-check";
import { CATALOG } from "./catalog.js";
import { endsInConsonant } from "./hangul.js";
import { matchGifts, type MatchRequest } from "./matcher.js";
import { createTextIndex, interestPlaced } from "./text-index.js";
import { TAG_LABELS_KO } from "./vocabulary-ko.js";

/** An interest as English writes it, and ways Korean writes the same. */
const INTERESTS: [en: string, ko: string[]][] = [
  ["hiking", ["등산", "하이킹", "트레킹", "산행"]],
  ["coffee", ["커피", "카페", "원두"]],
  ["photography", ["사진", "카메라", "출사"]],
  ["running", ["러닝", "달리기", "마라톤", "조깅"]],
  ["dogs", ["반려견", "강아지", "댕댕이"]],
  ["board games", ["보드게임", "보드 게임"]],
  ["reading", ["독서", "책", "소설"]],
  ["yoga", ["요가"]],
  ["golf", ["골프"]],
  ["wine", ["와인"]],
  ["cooking", ["요리"]],
  ["camping", ["캠핑", "글램핑"]],
  ["tea", ["차", "녹차", "홍차"]],
  ["cats", ["고양이", "냥이"]],
  ["music", ["음악"]],
  ["knitting", ["뜨개질"]],
  ["travel", ["여행"]],
  ["gardening", ["텃밭", "정원"]],
  ["tech", ["전자기기", "코딩"]],
  ["surfing", ["서핑"]],
];
/** What may follow a word in a Korean cell: a particle as its last sound asks, an ending, a fan word. */
const ENDINGS: ((word: string) => string)[] = [
  (w) => w,
  (w) => `${w}${endsInConsonant(w) ? "을" : "를"} 좋아함`,
  (w) => `${w}${endsInConsonant(w) ? "이" : "가"} 취미`,
  (w) => `${w} 마니아`,
  (w) => `${w}덕후`,
];
const DEPARTMENTS: [string, string][] = [
  ["Engineering", "개발팀"],
  ["Sales", "영업팀"],
  ["Marketing", "마케팅팀"],
  ["Finance", "재무팀"],
  ["Human Resources", "인사팀"],
  ["Design", "디자인팀"],
  ["Operations", "운영본부"],
  ["Customer Support", "고객지원팀"],
  ["Legal", "법무팀"],
  ["Research", "연구소"],
];
const OCCASIONS: [string, string][] = [
  ["birthday", "생일"],
  ["farewell", "송별"],
  ["holiday", "연말"],
  ["thank you", "감사"],
  ["work anniversary", "입사 기념일"],
  ["welcome", "입사 환영"],
  ["promotion", "승진"],
  ["retirement", "은퇴"],
  ["wedding", "결혼"],
  ["new baby", "출산"],
  ["housewarming", "집들이"],
  ["graduation", "졸업"],
  ["sympathy", "위로"],
];

const ids = (request: MatchRequest) => matchGifts(request).map((g) => g.id);
const byId = new Map(CATALOG.map((i) => [i.id, i]));

describe("the same person in English and in Korean", () => {
  it("gets the same picks when the words mean the same, whatever language the answer is in", () => {
    const person = fc.record({
      interests: fc.uniqueArray(
        fc.record({ at: fc.nat(INTERESTS.length - 1), variant: fc.nat(), ending: fc.nat(ENDINGS.length - 1) }),
        { maxLength: 4, selector: (i) => i.at },
      ),
      department: fc.option(fc.constantFrom(...DEPARTMENTS), { nil: undefined }),
      occasion: fc.constantFrom(...OCCASIONS),
      budget: fc.integer({ min: 5, max: 400 }),
      count: fc.integer({ min: 1, max: 8 }),
    });
    fc.assert(
      fc.property(person, ({ interests, department, occasion, budget, count }) => {
        const english = interests.map(({ at }) => INTERESTS[at][0]);
        const korean = interests.map(({ at, variant, ending }) => {
          const words = INTERESTS[at][1];
          return ENDINGS[ending](words[variant % words.length]);
        });
        const en = { occasion: occasion[0], budget, interests: english, department: department?.[0], count };
        const ko = { occasion: occasion[1], budget, interests: korean, department: department?.[1], count };
        const picks = ids(en);
        expect(ids(ko)).toEqual(picks);
        expect(ids({ ...ko, locale: "ko" })).toEqual(picks);
        expect(ids({ ...en, locale: "ko" })).toEqual(picks);
      }),
      { numRuns: 400 },
    );
  });

  it("reads free text in either language, or both at once", () => {
    const request = { occasion: "birthday", budget: 60, interests: [], count: 5 };
    const english = ids({ ...request, text: "a colleague who loves hiking and coffee" });
    expect(ids({ ...request, text: "등산과 커피를 좋아하는 동료" })).toEqual(english);
    expect(ids({ ...request, text: "커피 and hiking" })).toEqual(english);
    expect(ids({ ...request, text: "등산하기를 좋아하고 커피덕후인 동료" })).toEqual(english);
  });

  it("understands each tag's Korean label as that tag", () => {
    const tagNames = Object.keys(TAG_LABELS_KO);
    const index = createTextIndex(tagNames, []);
    for (const [tag, label] of Object.entries(TAG_LABELS_KO)) {
      expect(
        index.tagsOf(label).map((t) => tagNames[t]),
        `${tag}: ${label}`,
      ).toContain(tag);
    }
  });

  it("places what it understands and says so of what it does not", () => {
    const placed = [
      "등산",
      "커피를",
      "보드 게임",
      "hiking",
      "댕댕이",
      "서핑",
      "surfing",
      "영화 보기",
      "K-pop",
      "넷플릭스",
    ];
    expect(placed.filter((interest) => !interestPlaced(interest))).toEqual([]);
    expect(["마술", "quantum", "", "양자역학"].map(interestPlaced)).toEqual([false, false, false, false]);
  });
});

describe("answers in Korean", () => {
  const ko = (request: Omit<MatchRequest, "locale">) => matchGifts({ ...request, locale: "ko" });

  it("names each gift and category in Korean, with the English ids and prices", () => {
    const request = { occasion: "birthday", budget: 80, interests: ["coffee"], count: 5 };
    const english = matchGifts(request);
    const korean = ko(request);
    expect(korean.map((g) => [g.id, g.price])).toEqual(english.map((g) => [g.id, g.price]));
    for (const gift of korean) {
      const item = byId.get(gift.id);
      expect(gift.name).toBe(item?.ko.name);
      expect(gift.category).toBe(item?.ko.category);
    }
  });

  it("says in the reason which interest it meets, with the particles the words take", () => {
    const [one] = ko({ occasion: "생일", budget: 60, interests: ["등산"], count: 1 });
    expect(one.reason).toMatch(
      /^등산을 좋아하셔서 고른 선물로, 생일 축하에 잘 어울립니다\. 예산 \$60 중 \$\d+입니다\.$/,
    );
    const [coffee] = ko({ occasion: "something else", budget: 30, interests: ["커피"], count: 1 });
    expect(coffee.reason).toMatch(/^커피를 좋아하셔서 고른 선물입니다\. 예산 \$30 중 \$\d+입니다\.$/);
    const both = ko({ occasion: "birthday", budget: 100, interests: ["와인", "여행"], count: 3 });
    expect(both.map((g) => g.reason)).toContainEqual(expect.stringMatching(/^(와인과 여행|여행과 와인)을 좋아하셔서/));
  });

  it("says which stated interest a related gift goes with, and words the department and generic openings", () => {
    const [related] = ko({ occasion: "감사", budget: 45, interests: ["요가"], count: 1 });
    expect(related.reason).toMatch(/^요가를 좋아하시는 분께 잘 맞는 선물로, 감사 인사로 건네기 좋습니다\./);
    const [department] = ko({ occasion: "송별", budget: 70, interests: [], department: "개발팀", count: 1 });
    expect(department.reason).toMatch(/^개발팀에서 일하시는 분께 맞춘 선물로, 송별에 잘 어울립니다\./);
    const [generic] = ko({ occasion: "birthday", budget: 100, interests: [], count: 1 });
    expect(generic.reason).toMatch(/^많은 분이 좋아하는 .+ 선물로, 생일 축하에 잘 어울립니다\./);
  });
});
