import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, type FormEvent } from 'react';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { prepareProofOfWork } from '../../lib/solve-ahead';

/**
 * A form checked by one of the shared schemas, so the browser applies the rules the server parses
 * the request with: react-hook-form with the zod resolver. `send` gets the parsed values and says
 * whether they were stored; only then is the form emptied, so what a person typed survives a failure.
 * The submit button is live from the server-rendered HTML on (a send asked for before the island runs
 * is held for it: src/lib/client-form-directive.ts) and `disabled` while a submission is under way;
 * a button disabled while it has focus drops that focus to the page, so once the submission is over
 * the focus goes back to it (unless the person has moved it meanwhile): a keyboard user goes on
 * from where they were, and a screen reader is not left at the top of the page.
 * `onFocus` goes on the form: the first focus inside it starts the proof of work its submission needs.
 */
export function useSchemaForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  send: (values: Output) => Promise<boolean>,
) {
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues });
  const { errors, isSubmitting } = form.formState;
  const submitter = useRef<HTMLElement | null>(null);
  const submit = form.handleSubmit(async (values) => {
    if (await send(values)) form.reset();
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const native = event.nativeEvent as SubmitEvent;
    submitter.current = native.submitter ?? event.currentTarget.querySelector<HTMLElement>('[type="submit"]');
    return submit(event);
  };
  useEffect(() => {
    if (isSubmitting) return;
    const button = submitter.current;
    submitter.current = null;
    const active = document.activeElement;
    if (button?.isConnected && (active === null || active === document.body)) button.focus();
  }, [isSubmitting]);
  return {
    register: form.register,
    errors,
    onSubmit,
    onFocus: prepareProofOfWork,
    submitting: isSubmitting,
    disabled: isSubmitting,
  };
}
