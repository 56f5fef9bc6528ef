/**
 * A list of native radio choices inside a form: arrows move and select, Tab leaves, the form's
 * button confirms. Used by the contract and account pickers.
 */
import { html, nothing, type TemplateResult } from 'lit';

export interface Choice {
  id: string;
  /** A template when part of it is in another language (the bank's own words, with their `lang`). */
  title: string | TemplateResult;
  detail?: string;
  /** A warning about the choice (an account the bank refused), shown apart and read with it. */
  flag?: string;
}

export function renderChoices(opts: {
  name: string;
  /** What the choice is about: its legend, or (`labelledBy`) the id of the heading that names it. */
  legend?: string;
  labelledBy?: string;
  choices: readonly Choice[];
  selected: string | null;
  disabled: boolean;
  onSelect: (id: string) => void;
  /** Ids of the texts that describe the group (such as its error). */
  describedBy?: string;
}): TemplateResult {
  return html`<fieldset part="list" aria-labelledby=${opts.labelledBy || nothing} aria-describedby=${opts.describedBy || nothing}>
    ${opts.labelledBy ? nothing : html`<legend part="title">${opts.legend}</legend>`}
    <div class="choices">
      ${opts.choices.map(
        (c) => html`<label class="choice${c.flag ? ' flagged' : ''}" part="option">
          <input
            type="radio"
            name=${opts.name}
            .checked=${c.id === opts.selected}
            ?disabled=${opts.disabled}
            @change=${() => opts.onSelect(c.id)}
          />
          <span class="choice-text">
            <span class="choice-title">${c.title}</span>
            ${c.detail ? html`<span class="choice-detail" part="detail">${c.detail}</span>` : nothing}
            ${c.flag ? html`<span class="choice-flag" part="flag">${c.flag}</span>` : nothing}
          </span>
        </label>`,
      )}
    </div>
  </fieldset>`;
}
