/**
 * The labelled quality set of the gift matcher, written by hand: a hundred people of a company,
 * each written once in English and once in Korean (the same department, occasion, budget and
 * interests, in the words a staff list would use), with the catalog categories a reasonable gift
 * for them comes from; and twelve recipients described in free text both ways, as suggest_gifts
 * hears them. `npm run bench` (bench/quality.ts) and the matcher's tests measure against it.
 */

import { splitInterests } from "../server/files/read/people/interests.js";

export type Language = "en" | "ko";
type Pair = readonly [en: string, ko: string];

/** The catalog categories (their English names, which stay the same in every language). */
const CATEGORY = {
  COF: "Coffee & Tea",
  FOOD: "Food & Treats",
  KIT: "Kitchen & Cooking",
  BAR: "Drinks & Bar",
  BOOK: "Books & Learning",
  TECH: "Tech & Gadgets",
  OFF: "Office & Desk",
  FIT: "Fitness & Sports",
  OUT: "Outdoors & Travel",
  WELL: "Wellness & Self-Care",
  HOME: "Home & Decor",
  PLANT: "Plants & Garden",
  GAME: "Games & Puzzles",
  MUS: "Music & Audio",
  ART: "Art & Crafts",
  PHO: "Photography",
  FASH: "Fashion & Accessories",
  EXP: "Experiences",
  PET: "Pets",
  KID: "Kids & Family",
  KEEP: "Keepsakes",
} as const;
type CategoryCode = keyof typeof CATEGORY;

export type QualityPerson = {
  id: number;
  /** US dollars, the same in both languages. */
  budget: number;
  /** The catalog categories (English names) a reasonable gift for this person comes from. */
  categories: readonly string[];
  /** The person as each language's staff list writes them; `interests` as the job splits the cell. */
  as: Record<Language, { department: string; occasion: string; interests: string[] }>;
};

export type QualityRecipient = {
  budget: number;
  categories: readonly string[];
  /** suggest_gifts' `occasion` and `recipient`, in each language. */
  as: Record<Language, { occasion: string; text: string }>;
};

const ENG: Pair = ["Engineering", "개발팀"];
const SALES: Pair = ["Sales", "영업팀"];
const MKT: Pair = ["Marketing", "마케팅팀"];
const FIN: Pair = ["Finance", "재무팀"];
const HR: Pair = ["Human Resources", "인사팀"];
const DES: Pair = ["Design", "디자인팀"];
const OPS: Pair = ["Operations", "운영팀"];
const SUP: Pair = ["Customer Support", "고객지원팀"];
const LEGAL: Pair = ["Legal", "법무팀"];
const RES: Pair = ["Research", "연구소"];

const BDAY: Pair = ["birthday", "생일"];
const HOL: Pair = ["holiday", "연말 선물"];
const THX: Pair = ["thank you", "감사"];
const FARE: Pair = ["farewell", "송별"];
const ANNIV: Pair = ["work anniversary", "입사 기념일"];
const WELC: Pair = ["welcome", "입사 환영"];
const PROMO: Pair = ["promotion", "승진"];
const RETIRE: Pair = ["retirement", "은퇴"];
const WED: Pair = ["wedding", "결혼"];
const BABY: Pair = ["new baby", "출산"];

/** department, budget, occasion, the interests cell in English, the same in Korean, categories (codes). */
type Row = [Pair, number, Pair, string, string, string];

// Korean cells are written as a Korean staff list writes them: native words and loanwords,
// compounds with and without spaces, verbs in their -기 form, an ending or a particle here and there.
// Cells list interests the ways people separate them (", " "/" "·" ";" " | " a line break), with a
// comma inside a number and a band's name with a slash, as real lists have them.
const ROWS: Row[] = [
  [ENG, 60, BDAY, "hiking; coffee", "등산/커피", "OUT FIT COF"],
  [ENG, 40, HOL, "board games, LEGO", "보드게임, 레고", "GAME KID"],
  [ENG, 75, FARE, "cycling, photography", "자전거 타기,사진", "FIT OUT PHO TECH"],
  [ENG, 50, THX, "coffee/gaming", "커피·게임", "COF GAME TECH"],
  [ENG, 100, ANNIV, "running\ngadgets", "러닝\n전자기기", "FIT TECH OFF"],
  [ENG, 30, BDAY, "1,000-piece puzzles", "1,000피스 퍼즐", "GAME"],
  [ENG, 150, PROMO, "espresso, vinyl", "에스프레소; LP", "COF MUS"],
  [ENG, 25, WELC, "tea", "차", "COF WELL"],
  [ENG, 60, HOL, "camping; craft beer", "캠핑/수제 맥주", "OUT BAR"],
  [ENG, 100, BDAY, "sci-fi novels, astronomy", "SF 소설, 천문학", "BOOK EXP HOME"],
  [SALES, 75, HOL, "golf", "골프", "FIT"],
  [SALES, 50, BDAY, "wine/eating out", "와인·맛집 탐방", "BAR EXP FOOD KIT"],
  [SALES, 100, FARE, "travel\nphotography", "여행\n사진 찍기", "OUT EXP PHO TECH"],
  [SALES, 40, THX, "coffee", "커피 마시기", "COF"],
  [SALES, 60, PROMO, "whiskey, golf", "위스키; 골프", "BAR EXP FIT"],
  [SALES, 30, BDAY, "snacks / football", "간식 / 축구", "FOOD FIT"],
  [SALES, 150, RETIRE, "fishing; camping; surfing", "낚시/캠핑/서핑", "OUT EXP FIT"],
  [SALES, 50, WELC, "running", "달리기", "FIT TECH"],
  [SALES, 80, ANNIV, "wine, jazz", "와인,재즈", "BAR EXP FOOD MUS"],
  [SALES, 25, HOL, "chocolate", "초콜릿", "FOOD"],
  [MKT, 60, BDAY, "photography\ncoffee", "사진\n카페", "PHO TECH COF"],
  [MKT, 45, THX, "yoga | pilates", "요가, 필라테스", "FIT WELL"],
  [MKT, 80, FARE, "art, travel, movies", "미술관; 여행; 영화 감상", "ART HOME EXP OUT"],
  [MKT, 35, HOL, "skincare / perfume", "뷰티 / 향수", "WELL"],
  [MKT, 100, BDAY, "fashion; jewelry", "패션/주얼리", "FASH"],
  [MKT, 50, WELC, "podcasts, learning English", "팟캐스트, 영어공부", "MUS TECH BOOK OFF"],
  [MKT, 70, PROMO, "design, houseplants", "디자인,반려식물", "ART HOME OFF PLANT"],
  [MKT, 40, BDAY, "baking", "베이킹", "KIT FOOD"],
  [MKT, 120, WED, "cooking\nwine", "요리\n와인", "KIT FOOD EXP BAR"],
  [MKT, 30, HOL, "cats", "고양이", "PET"],
  [FIN, 50, BDAY, "reading, webtoons", "독서; 웹툰", "BOOK"],
  [FIN, 60, HOL, "green tea / meditation", "녹차 / 명상", "COF WELL"],
  [FIN, 40, THX, "marathon; coffee", "마라톤/커피", "FIT TECH COF"],
  [FIN, 75, ANNIV, "golf, wine", "골프, 와인", "FIT BAR EXP FOOD"],
  [FIN, 100, RETIRE, "gardening, history", "정원 가꾸기,역사", "PLANT BOOK EXP"],
  [FIN, 30, WELC, "board games/snacks", "보드게임·과자", "GAME KID FOOD"],
  [FIN, 50, BDAY, "dogs", "강아지", "PET"],
  [FIN, 80, PROMO, "investing | fountain pens", "재테크, 만년필", "OFF BOOK"],
  [FIN, 45, HOL, "puzzles, tea", "직소 퍼즐; 홍차", "GAME COF WELL"],
  [FIN, 150, FARE, "travel / camping", "해외여행 / 캠핑", "OUT EXP"],
  [HR, 50, BDAY, "yoga; tea", "요가/차 마시기", "FIT WELL COF"],
  [HR, 40, THX, "books, coffee", "책, 커피", "BOOK COF"],
  [HR, 60, BABY, "family, photography", "가족,사진", "KID KEEP PHO TECH"],
  [HR, 80, HOL, "wellness/spa", "웰빙·스파", "WELL"],
  [HR, 30, WELC, "knitting", "뜨개질", "ART"],
  [HR, 100, RETIRE, "gardening | birdwatching", "텃밭 가꾸기, 탐조", "PLANT OUT"],
  [HR, 55, BDAY, "cooking, kids", "요리; 아이들", "KIT FOOD EXP KID"],
  [HR, 25, HOL, "candy / cats", "사탕 / 고양이", "FOOD PET"],
  [HR, 70, ANNIV, "K-pop; concerts; karaoke", "K-pop/콘서트/노래방", "MUS EXP"],
  [HR, 120, WED, "home, cooking", "집꾸미기, 요리", "HOME KIT FOOD EXP"],
  [DES, 60, BDAY, "drawing, coffee", "드로잉,커피", "ART COF"],
  [DES, 45, THX, "typography/stationery", "타이포그래피·문구", "ART HOME OFF BOOK"],
  [DES, 80, HOL, "pottery\nplants", "도자기\n식물", "ART PLANT HOME"],
  [DES, 100, FARE, "cameras | travel", "필름 카메라, 여행", "PHO TECH OUT EXP"],
  [DES, 35, BDAY, "illustration", "일러스트", "ART"],
  [DES, 50, WELC, "architecture / coffee", "건축 / 커피", "ART HOME OFF COF"],
  [DES, 70, PROMO, "fashion; design", "패션/디자인", "FASH ART HOME OFF"],
  [DES, 150, ANNIV, "vinyl, AC/DC, design", "LP, AC/DC, 디자인", "MUS ART HOME OFF"],
  [DES, 30, HOL, "crafts", "공예", "ART"],
  [DES, 60, BDAY, "cats/painting", "고양이·그림 그리기", "PET ART"],
  [OPS, 50, BDAY, "cycling", "자전거", "FIT OUT"],
  [OPS, 40, THX, "coffee | planners", "커피, 플래너", "COF OFF"],
  [OPS, 75, HOL, "beer, baseball", "맥주; 야구", "BAR FIT"],
  [OPS, 100, FARE, "trekking and camping", "트레킹과 캠핑", "OUT FIT"],
  [OPS, 60, ANNIV, "cars; coffee", "자동차/커피", "EXP COF"],
  [OPS, 30, WELC, "snacks, movies", "간식, 영화 보기", "FOOD EXP TECH"],
  [OPS, 80, BDAY, "gym, swimming, cooking", "헬스,수영,요리", "FIT WELL TECH KIT FOOD EXP"],
  [OPS, 45, HOL, "dogs/hiking", "반려견·등산", "PET OUT FIT"],
  [OPS, 150, RETIRE, "golf\ntravel", "골프\n여행", "FIT OUT EXP"],
  [OPS, 25, THX, "tea", "허브티", "COF WELL"],
  [SUP, 40, BDAY, "video games, Netflix", "게임; 넷플릭스", "GAME TECH FOOD EXP"],
  [SUP, 50, THX, "relaxing / tea", "휴식 / 차", "WELL COF"],
  [SUP, 30, HOL, "novels; K-dramas", "소설/드라마", "BOOK EXP FOOD TECH"],
  [SUP, 60, BDAY, "music, running, skiing", "음악, 러닝, 스키", "MUS EXP FIT TECH"],
  [SUP, 80, ANNIV, "sleep, health", "숙면,건강", "WELL"],
  [SUP, 35, WELC, "coffee/plants", "커피·화분", "COF PLANT HOME"],
  [SUP, 100, FARE, "camping\nphotography", "캠핑\n출사", "OUT PHO TECH"],
  [SUP, 45, BDAY, "baking bread | cats", "빵 굽기, 고양이", "KIT FOOD PET"],
  [SUP, 55, HOL, "yoga, meditation", "요가; 명상", "FIT WELL"],
  [SUP, 70, BDAY, "board games / bowling / beer", "보드 게임 / 볼링 / 맥주", "GAME KID BAR FIT"],
  [LEGAL, 60, BDAY, "reading; wine", "책 읽기/와인", "BOOK BAR EXP FOOD"],
  [LEGAL, 100, PROMO, "cocktails", "칵테일", "BAR EXP"],
  [LEGAL, 45, THX, "tennis, badminton", "테니스,배드민턴", "FIT"],
  [LEGAL, 80, HOL, "history/chess", "역사·체스", "BOOK EXP GAME"],
  [LEGAL, 150, RETIRE, "sailing\ntravel", "요트\n여행", "OUT EXP"],
  [LEGAL, 30, WELC, "coffee", "원두 커피", "COF"],
  [LEGAL, 55, BDAY, "classical music, piano", "클래식 음악; 피아노", "MUS EXP"],
  [LEGAL, 75, ANNIV, "writing / tea", "글쓰기 / 차", "BOOK OFF COF WELL"],
  [LEGAL, 40, HOL, "puzzles; crosswords", "퍼즐/십자말풀이", "GAME"],
  [LEGAL, 120, WED, "home decor, plants", "인테리어 소품, 식물", "HOME PLANT"],
  [RES, 60, BDAY, "science, coffee", "과학,커피", "BOOK EXP TECH COF"],
  [RES, 100, HOL, "stargazing", "별 보기", "EXP HOME"],
  [RES, 50, THX, "reading\ntea", "책 읽기\n차", "BOOK COF WELL"],
  [RES, 40, BDAY, "hiking | basketball", "산행, 농구", "OUT FIT"],
  [RES, 100, FARE, "biology, gardening", "생물학; 텃밭", "BOOK EXP TECH PLANT"],
  [RES, 30, HOL, "coffee / sudoku", "커피 / 스도쿠", "COF GAME"],
  [RES, 70, BDAY, "jogging; podcasts", "조깅/팟캐스트", "FIT TECH MUS"],
  [RES, 150, RETIRE, "wine, travel", "와인, 여행", "BAR EXP FOOD OUT"],
  [RES, 45, WELC, "cooking", "요리하기", "KIT FOOD EXP"],
  [RES, 60, BABY, "parenting/books", "육아·책", "KID BOOK"],
];

const categories = (codes: string): string[] => codes.split(" ").map((c) => CATEGORY[c as CategoryCode]);
/** A cell's interests as the job reads them: split where the person's separators are. */
const cells = (text: string): string[] => splitInterests(text);

/** The hundred people; each appears once, written in both languages. */
export const QUALITY_PEOPLE: readonly QualityPerson[] = ROWS.map(
  ([department, budget, occasion, en, ko, codes], i) => ({
    id: i + 1,
    budget,
    categories: categories(codes),
    as: {
      en: { department: department[0], occasion: occasion[0], interests: cells(en) },
      ko: { department: department[1], occasion: occasion[1], interests: cells(ko) },
    },
  }),
);

/** budget, occasion, the recipient in English, in Korean, categories (codes). */
type RecipientRow = [number, Pair, string, string, string];

const RECIPIENT_ROWS: RecipientRow[] = [
  [60, BDAY, "a colleague who loves hiking and coffee", "등산과 커피를 좋아하는 동료", "OUT FIT COF"],
  [80, BDAY, "a teammate who is into photography and travel", "사진 찍기와 여행을 즐기는 팀원", "PHO TECH OUT EXP"],
  [50, THX, "my manager, a big reader of novels", "소설을 즐겨 읽는 독서광 팀장님", "BOOK"],
  [60, BDAY, "an engineer who plays board games every weekend", "주말마다 보드게임을 하는 개발자", "GAME KID"],
  [70, THX, "a designer who does yoga and meditation", "요가와 명상을 하는 디자이너", "FIT WELL"],
  [60, FARE, "a runner training for a marathon", "마라톤을 준비하는 러너", "FIT TECH"],
  [90, BDAY, "someone who loves cooking and wine", "요리하는 것과 와인을 좋아하는 분", "KIT FOOD EXP BAR"],
  [50, BDAY, "a dog lover who walks their puppy every day", "매일 강아지와 산책하는 댕댕이 보호자", "PET"],
  [75, PROMO, "a salesperson who plays golf", "골프를 치는 영업팀 동료", "FIT"],
  [100, FARE, "a friend who goes camping every month", "매달 캠핑을 가는 캠핑 마니아", "OUT"],
  [50, HOL, "a plant parent with lots of houseplants", "반려식물을 많이 키우는 식집사", "PLANT HOME"],
  [60, BDAY, "a music fan who collects vinyl and plays guitar", "LP를 모으고 기타를 치는 음악 애호가", "MUS"],
];

/** The twelve recipients of the suggest_gifts comparison, each in English and in Korean. */
export const QUALITY_RECIPIENTS: readonly QualityRecipient[] = RECIPIENT_ROWS.map(
  ([budget, occasion, en, ko, codes]) => ({
    budget,
    categories: categories(codes),
    as: { en: { occasion: occasion[0], text: en }, ko: { occasion: occasion[1], text: ko } },
  }),
);
