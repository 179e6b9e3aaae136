/**
 * The occasion and budget inputs that both tool forms start with.
 */
export type OccasionBudgetProps = {
  occasion: string;
  budget: string;
  budgetLabel: string;
  onOccasion(value: string): void;
  onBudget(value: string): void;
};

export function OccasionBudget({ occasion, budget, budgetLabel, onOccasion, onBudget }: OccasionBudgetProps) {
  return (
    <div className="row">
      <label className="field grow">
        <span>Occasion</span>
        <input value={occasion} onChange={(e) => onOccasion(e.target.value)} required />
      </label>
      <label className="field narrow">
        <span>{budgetLabel}</span>
        <input type="number" min="1" step="any" value={budget} onChange={(e) => onBudget(e.target.value)} required />
      </label>
    </div>
  );
}
