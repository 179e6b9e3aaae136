/**
 * Calls `suggest_gifts` with an occasion, a budget and a recipient, as the model would.
 */
import { useState, type FormEvent } from "react";
import { CurrencySchema } from "../../../shared/money.js";
import { TOOL } from "../../../shared/tools.js";
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { OccasionBudget } from "./occasion-budget.js";

export function SuggestForm({ store, session }: { store: HarnessStore; session: HarnessSession }) {
  const [occasion, setOccasion] = useState("birthday");
  const [budget, setBudget] = useState("50");
  const [currency, setCurrency] = useState("");
  const [recipient, setRecipient] = useState("A colleague who loves hiking and good coffee");
  const busy = useHarness(store, (s) => s.busy);
  const ready = useHarness(store, (s) => s.connection.status === "ready");

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const args: Record<string, unknown> = { occasion: occasion.trim(), budget: Number(budget) };
    if (recipient.trim()) args.recipient = recipient.trim();
    const chosen = CurrencySchema.safeParse(currency);
    if (chosen.success) args.currency = chosen.data;
    void session.runTool(TOOL.suggestGifts, args);
  };

  return (
    <form className="card" onSubmit={submit} aria-label="Suggest gifts">
      <h2>suggest_gifts</h2>
      <OccasionBudget
        occasion={occasion}
        budget={budget}
        budgetLabel="Budget"
        currency={currency}
        onOccasion={setOccasion}
        onBudget={setBudget}
        onCurrency={setCurrency}
      />
      <label className="field">
        <span>Recipient</span>
        <input value={recipient} onChange={(e) => setRecipient(e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={!ready || busy !== null}>
        {busy === TOOL.suggestGifts ? "Calling…" : "Suggest gifts"}
      </button>
    </form>
  );
}
