/**
 * The words the matcher understands: which free-text words mean which interest tag, which mean
 * which occasion, and what a department hints at; English here, Korean in vocabulary-ko.ts. Words
 * are normalized the same way on both sides (lower case, a plural `s` dropped; Korean particles
 * and endings taken off), so "Books" and "book", "등산을" and "등산" hit the same tag.
 */
import { createHangulSplitter, HANGUL_RUN } from "./hangul.js";
import { DEPARTMENT_WORDS_KO, OCCASION_WORDS_KO, TAG_WORDS_KO } from "./vocabulary-ko.js";

/** Interest tag → words (or two-word phrases) that mean it; the tag itself always counts. */
export const TAG_WORDS: Record<string, string[]> = {
  coffee: ["espresso", "latte", "barista", "caffeine", "cappuccino", "cafe"],
  tea: ["matcha", "chai", "earl grey", "green tea"],
  cooking: [
    ...["cook", "chef", "foodie", "food", "cuisine", "grill", "bbq", "barbecue", "recipe", "kitchen"],
    ...["eating out", "restaurant", "restaurants", "dining", "fine dining"],
  ],
  baking: ["bake", "baker", "pastry", "bread", "sourdough", "cake"],
  chocolate: ["cocoa", "sweet", "sweets", "candy", "dessert"],
  snacks: ["snack", "treat", "treats"],
  wine: ["vino", "sommelier", "red wine", "champagne", "prosecco"],
  beer: ["brewing", "brew", "craft beer", "ipa", "homebrew"],
  cocktails: ["cocktail", "mixology", "whiskey", "whisky", "bourbon", "gin", "spirits", "bar", "highball"],
  reading: [
    ...["book", "books", "novel", "literature", "book club", "reader", "fiction", "audiobook"],
    ...["comics", "comic", "manga", "webtoon", "graphic novel"],
  ],
  writing: ["writer", "journal", "journaling", "poetry", "stationery", "pen", "calligraphy", "lettering"],
  learning: [
    ...["learn", "course", "study", "education", "language", "languages", "teaching", "english"],
    // money as a subject of study; not "finance" alone, which names a department
    ...["investing", "investment", "stocks", "stock market", "personal finance", "crypto"],
  ],
  tech: [
    "technology",
    "gadget",
    "gadgets",
    "computer",
    "computers",
    "programming",
    "coding",
    "code",
    "developer",
    "software",
    "engineer",
    "engineering",
    "electronics",
  ],
  gaming: ["game", "games", "gamer", "video games", "video game", "nintendo", "playstation", "xbox", "esports"],
  "board-games": ["board game", "board games", "boardgame", "tabletop", "card game", "card games", "dnd"],
  puzzles: ["puzzle", "crossword", "sudoku", "riddle", "chess", "jigsaw", "escape room", "lego", "rubik"],
  music: [
    "musician",
    "vinyl",
    "lp",
    "guitar",
    "piano",
    "concert",
    "concerts",
    "singing",
    "karaoke",
    "band",
    "jazz",
    "ukulele",
    ...["k-pop", "kpop", "pop", "rock", "hip hop", "classical", "drums", "violin", "cello", "choir", "song"],
  ],
  audio: ["podcast", "podcasts", "headphones", "audiophile", "sound", "audiobook"],
  photography: ["photo", "photos", "camera", "photographer", "polaroid", "film camera", "film photography"],
  fitness: [
    ...["gym", "workout", "exercise", "crossfit", "weightlifting", "lifting", "strength", "pilates"],
    ...["swimming", "swim", "swimmer"],
  ],
  running: ["runner", "marathon", "jogging", "5k", "triathlon"],
  yoga: ["yogi"],
  cycling: ["bike", "biking", "cyclist", "bicycle", "mountain biking"],
  hiking: ["hike", "hiker", "trekking", "trail", "trails", "mountains"],
  camping: ["camp", "camper", "backpacking", "tent"],
  outdoors: [
    ...["outdoor", "outside", "adventure", "kayaking", "climbing", "fishing", "surfing", "surf", "surfer"],
    ...["sailing", "sail", "boating", "skiing", "ski", "snowboarding", "snowboard", "scuba", "diving"],
  ],
  nature: ["birdwatching", "birds", "wildlife", "walking", "walks", "nature walks"],
  travel: ["traveling", "travelling", "traveler", "trip", "trips", "vacation", "wanderlust", "abroad"],
  gardening: ["garden", "gardener", "grow", "growing"],
  plants: ["plant", "houseplant", "houseplants", "succulent", "flowers", "bonsai", "plant parent"],
  art: ["artist", "painting", "paint", "museum", "museums", "gallery"],
  drawing: ["draw", "sketch", "sketching", "illustration", "illustrator", "doodle"],
  crafts: ["craft", "crafting", "diy", "maker", "sewing", "pottery", "ceramics", "woodworking", "embroidery"],
  knitting: ["knit", "crochet", "yarn"],
  design: ["designer", "ux", "ui", "typography", "architecture", "creative"],
  home: ["house", "homebody", "interior", "cozy", "nesting"],
  decor: ["decoration", "interiors", "home decor"],
  wellness: [
    "wellbeing",
    "well being",
    "health",
    "healthy",
    "self care",
    "self-care",
    "mindfulness",
    "dieting",
    "diet",
  ],
  meditation: ["meditate", "mindful", "calm"],
  relaxation: ["relax", "relaxing", "spa", "bath", "chill", "stress"],
  sleep: ["sleeping", "nap", "insomnia"],
  skincare: ["skin", "beauty", "cosmetics", "makeup", "perfume", "fragrance", "fragrances"],
  fashion: ["style", "stylish", "clothes", "clothing", "accessories", "fashionista", "shopping"],
  jewelry: ["jewellery", "necklace", "earrings", "bracelet"],
  pets: ["pet", "animal", "animals", "pet parent"],
  dogs: ["dog", "puppy", "pup"],
  cats: ["cat", "kitten", "kitty"],
  kids: ["kid", "child", "children", "toddler", "baby", "parenting"],
  family: ["parent", "parents", "mom", "dad", "mother", "father", "grandparent"],
  office: ["desk", "workspace", "work from home", "wfh", "remote"],
  productivity: ["organized", "organization", "planner", "planning", "efficiency"],
  sports: [
    ...["sport", "athlete", "athletic", "baseball", "basketball", "volleyball", "bowling", "billiards"],
    ...["skiing", "surfing", "swimming"],
  ],
  golf: ["golfer", "golfing"],
  soccer: ["football", "futbol"],
  tennis: ["padel", "squash", "badminton", "table tennis", "ping pong"],
  science: ["scientist", "physics", "chemistry", "biology", "stem", "research"],
  space: ["astronomy", "stars", "stargazing", "astronaut", "nasa"],
  history: ["historian", "vintage", "antiques", "heritage"],
  sustainability: [
    "sustainable",
    "eco",
    "environment",
    "zero waste",
    "climate",
    "charity",
    "volunteering",
    "volunteer",
  ],
  experiences: [
    ...["experience", "adventures", "outing", "events", "theater", "theatre", "musical", "musicals"],
    ...["broadway", "festival", "festivals", "show", "shows"],
  ],
  movies: [
    ...["movie", "film", "films", "cinema", "movie night", "netflix", "streaming", "tv", "tv shows"],
    ...["tv series", "series", "drama", "dramas", "k-drama", "kdrama", "anime", "documentary"],
    ...["documentaries", "film buff"],
  ],
  cars: ["car", "racing", "motorsport", "f1", "formula 1", "formula one", "driving", "road trip", "road trips"],
};

/**
 * Interests next to each other: a gift for a related interest is the next best thing for someone
 * who named this one (a yoga mat is out of budget, a foam roller is not). Weighed below the
 * stated interest itself, and named in the reason as going with it.
 */
export const RELATED_TAGS: Record<string, string[]> = {
  coffee: ["tea"],
  tea: ["coffee", "wellness"],
  cooking: ["baking", "snacks"],
  baking: ["cooking", "chocolate"],
  chocolate: ["snacks", "baking"],
  snacks: ["chocolate"],
  wine: ["cocktails"],
  beer: ["cocktails"],
  cocktails: ["wine", "beer"],
  reading: ["writing", "learning"],
  writing: ["reading"],
  learning: ["reading"],
  tech: ["gaming", "audio"],
  gaming: ["tech", "board-games"],
  "board-games": ["puzzles", "gaming", "family"],
  puzzles: ["board-games"],
  music: ["audio"],
  audio: ["music", "tech"],
  photography: ["travel", "art"],
  fitness: ["sports", "wellness"],
  running: ["fitness"],
  yoga: ["fitness", "wellness", "meditation"],
  cycling: ["fitness", "outdoors"],
  hiking: ["outdoors", "camping"],
  camping: ["outdoors", "hiking"],
  outdoors: ["hiking", "camping", "nature"],
  nature: ["outdoors", "gardening"],
  travel: ["outdoors", "experiences"],
  gardening: ["plants", "nature"],
  plants: ["gardening", "decor"],
  art: ["drawing", "crafts", "decor"],
  drawing: ["art"],
  crafts: ["art", "knitting"],
  knitting: ["crafts"],
  design: ["art", "decor"],
  home: ["decor"],
  decor: ["home", "art"],
  wellness: ["relaxation", "meditation"],
  meditation: ["wellness", "relaxation"],
  relaxation: ["wellness"],
  sleep: ["relaxation", "wellness"],
  skincare: ["relaxation", "wellness"],
  fashion: ["jewelry"],
  jewelry: ["fashion"],
  pets: ["dogs", "cats"],
  dogs: ["pets"],
  cats: ["pets"],
  kids: ["family"],
  family: ["kids"],
  office: ["productivity"],
  productivity: ["office"],
  sports: ["fitness"],
  golf: ["sports"],
  soccer: ["sports"],
  tennis: ["sports"],
  science: ["space", "learning"],
  space: ["science"],
  history: ["reading", "learning"],
  sustainability: ["gardening", "nature"],
  experiences: ["travel"],
  cars: ["experiences"],
  movies: ["snacks", "experiences"],
};

/** Canonical occasions and the words that name them. */
export const OCCASION_WORDS: Record<string, string[]> = {
  birthday: ["birthday", "bday", "b-day", "birth day", "turning"],
  holiday: [
    "holiday",
    "holidays",
    "christmas",
    "xmas",
    "hanukkah",
    "chanukah",
    "diwali",
    "eid",
    "secret santa",
    "new year",
    "festive",
    "seasonal",
    "end of year",
  ],
  "thank-you": ["thank you", "thanks", "thank", "gratitude", "grateful"],
  appreciation: [
    "appreciation",
    "recognition",
    "kudos",
    "well done",
    "great job",
    "employee of the month",
    "award",
    "achievement",
  ],
  farewell: [
    "farewell",
    "leaving",
    "goodbye",
    "going away",
    "last day",
    "departure",
    "moving on",
    "send off",
    "send-off",
  ],
  retirement: ["retirement", "retiring", "retire", "retired"],
  promotion: ["promotion", "promoted", "new role", "new title", "step up"],
  "work-anniversary": [
    "work anniversary",
    "anniversary",
    "service anniversary",
    "years of service",
    "milestone",
    "tenure",
  ],
  welcome: ["welcome", "onboarding", "new hire", "first day", "new joiner", "new job", "joining"],
  wedding: ["wedding", "engagement", "engaged", "marriage", "married", "newlywed", "newlyweds", "bridal"],
  "new-baby": ["new baby", "baby shower", "baby", "newborn", "parental leave", "maternity", "paternity", "expecting"],
  housewarming: ["housewarming", "house warming", "new home", "new house", "new apartment", "moving", "moved"],
  "get-well": ["get well", "recovery", "recovering", "surgery", "sick", "illness", "hospital"],
  graduation: ["graduation", "graduate", "graduating", "degree", "diploma", "certification", "certified"],
  congratulations: ["congratulations", "congrats", "celebration", "celebrate", "success", "launch", "win"],
  sympathy: ["sympathy", "condolence", "condolences", "loss", "bereavement", "memorial"],
};

/** Human label of an occasion in a sentence ("a thoughtful pick for a work anniversary"). */
export const OCCASION_LABELS: Record<string, string> = {
  birthday: "a birthday",
  holiday: "the holidays",
  "thank-you": "a thank-you",
  appreciation: "showing appreciation",
  farewell: "a farewell",
  retirement: "a retirement",
  promotion: "a promotion",
  "work-anniversary": "a work anniversary",
  welcome: "a warm welcome",
  wedding: "a wedding",
  "new-baby": "a new baby",
  housewarming: "a housewarming",
  "get-well": "a get-well wish",
  graduation: "a graduation",
  congratulations: "a celebration",
  sympathy: "a sympathy gesture",
};

/** What a department suggests, weighed less than stated interests. */
export const DEPARTMENT_TAGS: Record<string, string[]> = {
  engineering: ["tech", "puzzles"],
  "r&d": ["tech", "science"],
  it: ["tech", "gaming"],
  data: ["tech", "puzzles"],
  product: ["tech", "design", "productivity"],
  design: ["design", "art"],
  marketing: ["design", "writing", "photography"],
  communications: ["writing", "reading"],
  sales: ["travel", "golf", "coffee"],
  "customer success": ["coffee", "wellness"],
  support: ["coffee", "wellness", "relaxation"],
  finance: ["productivity", "office"],
  accounting: ["productivity", "office"],
  legal: ["reading", "writing"],
  hr: ["wellness", "writing"],
  "human resources": ["wellness", "writing"],
  people: ["wellness", "writing"],
  operations: ["productivity", "office"],
  logistics: ["travel", "productivity"],
  facilities: ["home", "tech"],
  executive: ["wine", "travel", "fashion"],
  leadership: ["reading", "wine"],
  research: ["science", "reading"],
};

/** Lower-cases and drops one plural `s` (not from "ss"), the same for keywords and input words. */
function normalizeWord(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

const KOREAN = new RegExp(`[${HANGUL_RUN}]+`, "g");
/** Every Hangul word the vocabulary holds: what a Korean run of text is split into. */
const koreanWords = new Set(
  [TAG_WORDS_KO, OCCASION_WORDS_KO, DEPARTMENT_WORDS_KO].flatMap((words) =>
    Object.values(words).flatMap((list) => list.flatMap((phrase) => phrase.match(KOREAN) ?? [])),
  ),
);
const splitKorean = createHangulSplitter(koreanWords);
const WORD = new RegExp(`[a-z0-9&+]+|[${HANGUL_RUN}]+`, "g");

/**
 * Splits text into normalized words; keeps `&`, `+` and digits so "r&d" and "5k" survive. A run
 * of Hangul becomes the Korean words it holds ("등산과" → 등산), so mixed text works too.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(WORD) ?? []) {
    if (raw.charCodeAt(0) < 0xac00) out.push(normalizeWord(raw));
    else for (const word of splitKorean(raw)) out.push(word);
  }
  return out;
}
