/**
 * The console's forms as HTML: each field with its label, hint and errors next to it, linked by
 * `aria-describedby`, and the whole form with its groups and error summary.
 */
import { flag, html, type Html } from './layout.js';
import type { FieldDef, FieldErrors, FieldKind, FormDef, FormValues } from './form-defs.js';

function control(form: string, f: FieldDef, value: string, described: string, invalid: boolean): Html {
  const id = `${form}-${f.name}`;
  const common = html` id="${id}" name="${f.name}"${flag(f.required, 'required')}${described ? html` aria-describedby="${described}"` : ''}${
    invalid ? html` aria-invalid="true"` : ''
  }`;
  switch (f.kind) {
    case 'textarea':
      return html`<textarea${common} rows="3"${f.maxLength ? html` maxlength="${f.maxLength}"` : ''}>${value}</textarea>`;
    case 'select':
      return html`<select${common}>${(f.options ?? []).map((o) => html`<option value="${o.value}"${flag(o.value === value, 'selected')}>${o.label}</option>`)}</select>`;
    default: {
      const attrs: Record<FieldKind, Html> = {
        text: html` type="text"`,
        textarea: html``,
        select: html``,
        money: html` type="text" inputmode="decimal" pattern="\\d{1,9}([.,]\\d{1,2})?" autocomplete="off"`,
        integer: html` type="number" inputmode="numeric" step="1"`,
        url: html` type="url" placeholder="https://shop.example/thanks"`,
        iban: html` type="text" autocomplete="off" spellcheck="false" pattern="[A-Za-z]{2}\\d{2}[A-Za-z0-9 ]{11,40}" placeholder="ES91 2100 0418 4502 0005 1332"`,
        date: html` type="date"`,
      };
      return html`<input${common}${attrs[f.kind]} value="${value}"${f.maxLength ? html` maxlength="${f.maxLength}"` : ''}${
        f.min !== undefined ? html` min="${f.min}"` : ''
      }${f.max !== undefined ? html` max="${f.max}"` : ''}${f.pattern ? html` pattern="${f.pattern}"` : ''}>`;
    }
  }
}

export function renderField(form: string, f: FieldDef, value: string, errors: string[] = []): Html {
  const id = `${form}-${f.name}`;
  const described = [f.hint ? `${id}-hint` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${errors.length ? ' invalid' : ''}">
    <label for="${id}">${f.label}${f.required ? html` <span class="req" aria-hidden="true">*</span>` : ''}</label>
    ${control(form, f, value, described, errors.length > 0)}
    ${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
    ${errors.length ? html`<p class="error" id="${id}-error">${errors.join(' ')}</p>` : ''}
  </div>`;
}

/** The whole form; `notifUrl` is shown, not sent: the BFF sets `urlNotif` to itself. */
export function renderForm(def: FormDef, opts: { action: string; values: FormValues; errors?: FieldErrors; formErrors?: string[]; notifUrl: string }): Html {
  const inGroup = (g: FieldDef['group']) => def.fields.filter((f) => (f.group ?? 'main') === g);
  const group = (g: FieldDef['group']) => inGroup(g).map((f) => renderField(def.id, f, opts.values[f.name] ?? '', opts.errors?.[f.name]));
  const moreOpen = inGroup('more').some((f) => Boolean(opts.values[f.name]?.trim()) || Boolean(opts.errors?.[f.name]));
  const formErrors = opts.formErrors ?? [];
  const count = Object.keys(opts.errors ?? {}).length + formErrors.length;
  return html`<form method="post" action="${opts.action}" class="console-form" id="${def.id}-form">
    ${(def.hidden ?? []).map((name) => html`<input type="hidden" name="${name}" value="${opts.values[name] ?? ''}">`)}
    ${
      count
        ? html`<div class="flash error" role="alert" tabindex="-1" id="${def.id}-errors" autofocus>
          <p>${count === 1 ? 'One thing needs fixing' : 'Some things need fixing'} before the link can be created.</p>
          ${formErrors.length ? html`<ul>${formErrors.map((e) => html`<li>${e}</li>`)}</ul>` : ''}
        </div>`
        : ''
    }
    <p class="hint"><span aria-hidden="true">*</span> Required.</p>
    <fieldset><legend>Payment</legend>${group('main')}</fieldset>
    <fieldset><legend>Return addresses</legend>${group('return')}
      <div class="field">
        <label for="${def.id}-urlNotif">Result notifications (urlNotif)</label>
        <input id="${def.id}-urlNotif" type="url" value="${opts.notifUrl}" readonly aria-describedby="${def.id}-urlNotif-hint">
        <p class="hint" id="${def.id}-urlNotif-hint">Set by the BFF to itself: it verifies each signed notification and forwards it to this console.</p>
      </div>
    </fieldset>
    <details${flag(moreOpen, 'open')}>
      <summary>More options</summary>
      ${group('more')}
    </details>
    <button type="submit" class="primary">${def.submit}</button>
  </form>`;
}
