/**
 * The prompt `gift_congrats_style`: messages that ask for a short congratulation to go with a
 * gift, in a chosen tone and for a chosen occasion (both optional).
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { GetPromptResult, ListPromptsResult } from "@modelcontextprotocol/server";

const CONGRATS_PROMPT = "gift_congrats_style";

const TONES: Record<string, string> = {
  warm: "warm and sincere",
  playful: "playful, with a light touch of humor",
  formal: "formal and respectful",
  heartfelt: "heartfelt and personal",
  concise: "brief and to the point",
};

export const PROMPTS = {
  list: {
    prompts: [
      {
        name: CONGRATS_PROMPT,
        title: "Gift congratulation style",
        description: "Writes a short congratulation to go with a gift, in the tone and for the occasion you choose.",
        arguments: [
          ["tone", `The tone: ${Object.keys(TONES).join(", ")}, or your own words (default warm).`],
          ["occasion", "The occasion, e.g. birthday, promotion, farewell (default: a general celebration)."],
        ].map(([name, description]) => ({ name, description, required: false })),
      },
    ],
  } satisfies ListPromptsResult,
  get(name: string, args: Record<string, string> | undefined): GetPromptResult {
    if (name !== CONGRATS_PROMPT)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt "${name}". Available prompts: ${CONGRATS_PROMPT}.`,
        { prompt: name },
      );
    const toneKey = args?.tone?.trim().toLowerCase() || "warm";
    const tone = TONES[toneKey] ?? toneKey;
    const occasion = args?.occasion?.trim() || "a celebration";
    return {
      description: `A ${toneKey} congratulation for ${occasion}`,
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text:
              `Write a short congratulation (two or three sentences) to go with a gift for ${occasion}. ` +
              `Make it ${tone}. Address the recipient directly, mention the occasion, and do not name the gift's price. ` +
              "Return only the message text.",
          },
        },
      ],
    };
  },
};
