import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { useTestClient } from "../../test-kit/servers/test-server.js";

const t = useTestClient();

describe("the gift_congrats_style prompt", () => {
  it("is listed with its two optional arguments", async () => {
    const { prompts } = await t.client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({
        name: "gift_congrats_style",
        arguments: [
          expect.objectContaining({ name: "tone", required: false }),
          expect.objectContaining({ name: "occasion", required: false }),
        ],
      }),
    ]);
  });

  it("styles a short congratulation in the tone and for the occasion given", async () => {
    const { messages } = await t.client.getPrompt({
      name: "gift_congrats_style",
      arguments: { tone: "playful", occasion: "a promotion" },
    });
    expect(messages).toHaveLength(1);
    expect(messages[0].role).toBe("user");
    const content = messages[0].content;
    expect(content.type).toBe("text");
    if (content.type !== "text") return;
    expect(content.text).toContain("a promotion");
    expect(content.text).toContain("playful");
    expect(content.text).toMatch(/short congratulation/);
  });

  it("falls back to a warm tone and a general celebration", async () => {
    const { messages } = await t.client.getPrompt({ name: "gift_congrats_style" });
    const content = messages[0].content;
    const text = content.type === "text" ? content.text : "";
    expect(text).toContain("warm and sincere");
    expect(text).toContain("a celebration");
  });

  it("answers an unknown prompt with -32602", async () => {
    const error = await t.client.getPrompt({ name: "nope" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });
});
