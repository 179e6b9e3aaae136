/**
 * The occasion, budget and currency inputs that both tool forms start with. The currency is
 * optional, as in the tools: left at "From the locale", the host's locale decides (ko-KR: won).
 */
import { CURRENCIES } from "../../../shared/money.js";

export type OccasionBudgetProps = {
  occasion: string;
  budget: string;
  budgetLabel: string;
  /** An ISO 4217 code, or "" for the locale's. */
  currency: string;
  onOccasion(value: string): void;
  onBudget(value: string): void;
  onCurrency(value: string): void;
};

export function OccasionBudget(props: OccasionBudgetProps) {
  const { occasion, budget, budgetLabel, currency, onOccasion, onBudget, onCurrency } = props;
  return (
    // the occasion on a line of its own, so that it, the amount and its currency each have room
    <>
      <label className="field">
        <span>Occasion</span>
        <input value={occasion} onChange={(e) => onOccasion(e.target.value)} required />
      </label>
      <div className="row">
        <label className="field grow">
          <span>{budgetLabel}</span>
          <input type="number" min="1" step="any" value={budget} onChange={(e) => onBudget(e.target.value)} required />
        </label>
        <label className="field grow">
          <span>Currency</span>
          <select value={currency} onChange={(e) => onCurrency(e.target.value)}>
            <option value="">From the locale</option>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}
