import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { prepareProofOfWork } from '../../lib/proof-of-work';
import { useHydrated } from './use-hydrated';

/**
 * A form checked by one of the shared schemas, so the browser applies the rules the server parses
 * the request with: react-hook-form with the zod resolver. `send` gets the parsed values and says
 * whether they were stored; only then is the form emptied, so what a person typed survives a failure.
 * The submit button is `disabled` until the island has hydrated and while a submission is under way.
 * `onFocus` goes on the form: the first focus inside it starts the proof of work its submission needs.
 */
export function useSchemaForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  send: (values: Output) => Promise<boolean>,
) {
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues });
  const hydrated = useHydrated();
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    if (await send(values)) form.reset();
  });
  return {
    register: form.register,
    errors,
    onSubmit,
    onFocus: prepareProofOfWork,
    submitting: isSubmitting,
    disabled: !hydrated || isSubmitting,
  };
}
