import ExpandMore from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  quickSetupCreateSchema,
  type AppTemplate,
  type QuickSetupCreate,
  type QuickSetupResult,
} from '@slipway/contracts';
import { errorStatus, formErrors, type ApiError } from '../../ui/api-error';
import { Loaded } from '../../ui/Loaded';
import { Section } from '../../ui/Section';
import { namedOptions, SelectField } from '../../ui/SelectField';
import { StackedForm } from '../../ui/StackedForm';
import { useFormFields } from '../../ui/useFormFields';
import { useServiceTypesQuery } from '../applications/api';
import { useEnvironmentsQuery } from '../environments/api';
import {
  useCreateQuickSetupMutation,
  useQuickSetupRegistriesQuery,
  useQuickSetupRepositoriesQuery,
} from './api';
import { TemplateCards } from './TemplateCards';

/** The repository choice that stands for "a new hosted repository named like the application". */
export const HOSTED = 'hosted';

/** The service fields a template prefills. */
const defaultsOf = (template: AppTemplate) => ({
  serviceType: template.defaults.serviceType,
  port: String(template.defaults.port),
  namespace: template.defaults.namespace,
});

/**
 * Quick setup's one screen: the template, then the application's details (where it is deployed,
 * where its code goes, how it is served), then "Create and run". `onCreated` gets what was made.
 */
export function QuickSetupForm({
  templates,
  onCreated,
}: {
  templates: readonly AppTemplate[];
  onCreated: (result: QuickSetupResult, body: { name: string; template: AppTemplate }) => void;
}) {
  const { t } = useTranslation();
  const first = templates[0]!;
  const [create] = useCreateQuickSetupMutation();
  const environments = useEnvironmentsQuery({ _start: '0', _end: '100', _sort: 'name' });
  const repositories = useQuickSetupRepositoriesQuery();
  const registries = useQuickSetupRegistriesQuery();
  const serviceTypes = useServiceTypesQuery();
  const [advanced, setAdvanced] = useState(false);
  const form = useFormFields(
    {
      templateId: first.id,
      name: '',
      description: '',
      environmentIds: [] as string[],
      repositoryId: HOSTED,
      ...defaultsOf(first),
      baseImage: '',
    },
    { idPrefix: 'quick-setup' },
  );
  const v = form.values;
  const template = templates.find((x) => x.id === v.templateId) ?? first;

  /** Picks a template; the service fields still at the last template's defaults take the new one's. */
  function chooseTemplate(id: string) {
    const next = templates.find((x) => x.id === id);
    if (!next) return;
    const before = defaultsOf(template);
    const after = defaultsOf(next);
    form.setValue('templateId', id);
    for (const key of ['serviceType', 'port', 'namespace'] as const) {
      if (v[key].trim() === before[key]) form.setValue(key, after[key]);
    }
  }

  const input: QuickSetupCreate = {
    name: v.name,
    description: v.description,
    environmentIds: v.environmentIds,
    repositoryId: v.repositoryId === HOSTED ? null : v.repositoryId || null,
    serviceType: (v.serviceType || undefined) as QuickSetupCreate['serviceType'],
    port: v.port,
    namespace: v.namespace,
    baseImage: v.baseImage,
  };

  const submit = form.handleSubmit({
    schema: quickSetupCreateSchema,
    input,
    mutate: (body) => create({ templateId: template.id, body }),
    onSuccess: (result) => onCreated(result, { name: v.name.trim(), template }),
    onError: (error: ApiError) => {
      // a name already taken (by an application, a repository, a pipeline or a secret) is the
      // name's; the rest (field details under their fields, the message above) as every form does
      if (errorStatus(error) !== 409) return false;
      const { fields, message } = formErrors(error, Object.keys(v));
      if (Object.keys(fields).length > 0 || !message) return false;
      form.showErrors({ name: message });
      return true;
    },
  });

  const selectedRepository = repositories.data?.find((r) => (r.id ?? HOSTED) === v.repositoryId);
  const registry = registries.data?.registries[0];
  const imageName = v.name.trim() || '…';

  return (
    <StackedForm
      form={form}
      onSubmit={(e) => void submit(e)}
      aria-label={t('quickSetup.title')}
      submitLabel={t('quickSetup.form.submit')}
      after={
        <Box role="status" aria-live="polite">
          {form.submitting ? (
            <Stack spacing={1} data-testid="quick-setup-progress">
              <LinearProgress />
              <Typography variant="body2" color="text.secondary">
                {t('quickSetup.form.progress')}
              </Typography>
            </Stack>
          ) : null}
        </Box>
      }
    >
      <Section id="quick-setup-template-title" title={t('quickSetup.template.title')}>
        <TemplateCards
          templates={templates}
          value={v.templateId}
          onChange={chooseTemplate}
          labelledBy="quick-setup-template-title"
        />
      </Section>
      <Section id="quick-setup-details-title" title={t('quickSetup.form.title')}>
        <Stack spacing={2}>
          <TextField
            {...form.field('name')}
            label={t('quickSetup.form.name')}
            helperText={form.errors.name ?? t('quickSetup.form.nameHelp')}
            required
            fullWidth
          />
          <TextField
            {...form.field('description')}
            label={t('quickSetup.form.description')}
            multiline
            minRows={2}
            fullWidth
          />
          <Loaded query={environments} lines={2} what={t('quickSetup.loadError.environments')}>
            {(page) => (
              <SelectField
                id="quick-setup-environmentIds"
                name="environmentIds"
                label={t('quickSetup.form.environments')}
                value={v.environmentIds}
                onChange={(e) => form.setValue('environmentIds', e.target.value as unknown as string[])}
                error={Boolean(form.errors.environmentIds)}
                helperText={form.errors.environmentIds ?? t('quickSetup.form.environmentsHelp')}
                slotProps={{ select: { multiple: true } }}
                options={namedOptions(page.rows)}
                required
                fullWidth
              />
            )}
          </Loaded>
          <Loaded query={repositories} lines={2} what={t('quickSetup.loadError.repositories')}>
            {(list) => (
              <SelectField
                {...form.field('repositoryId')}
                label={t('quickSetup.form.repository')}
                helperText={
                  form.errors.repositoryId ??
                  (selectedRepository && !selectedRepository.seeded
                    ? t('quickSetup.form.existingHelp')
                    : t('quickSetup.form.hostedHelp', {
                        name: v.name.trim() || t('quickSetup.form.hostedUnnamed'),
                      }))
                }
                options={list.map((r) => ({
                  value: r.id ?? HOSTED,
                  label: r.kind === 'hosted' ? t('quickSetup.form.hosted') : r.name,
                }))}
                fullWidth
              />
            )}
          </Loaded>
          <Loaded query={registries} lines={2} what={t('quickSetup.loadError.registries')}>
            {() =>
              registry ? (
                <Stack spacing={1}>
                  <TextField
                    id="quick-setup-registry"
                    label={t('quickSetup.form.registry')}
                    value={registry.prefix}
                    helperText={t('quickSetup.form.registryHelp', {
                      name: registry.name,
                      image: `${registry.prefix}/${imageName}`,
                    })}
                    slotProps={{ htmlInput: { readOnly: true, dir: 'ltr' } }}
                    fullWidth
                  />
                  {registry.insecure ? (
                    <Alert severity="info" role="note" data-testid="quick-setup-insecure">
                      {t('quickSetup.form.insecure')}
                    </Alert>
                  ) : null}
                </Stack>
              ) : (
                <Alert severity="warning" role="note">
                  {t('quickSetup.form.noRegistry')}
                </Alert>
              )
            }
          </Loaded>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(3, minmax(0, 1fr))' },
            }}
          >
            <Loaded query={serviceTypes} lines={2} what={t('quickSetup.loadError.serviceTypes')}>
              {(types) => (
                <SelectField
                  {...form.field('serviceType')}
                  label={t('quickSetup.form.serviceType')}
                  options={types.map((s) => ({ value: s.name, label: s.name }))}
                  fullWidth
                />
              )}
            </Loaded>
            <TextField
              {...form.field('port')}
              label={t('quickSetup.form.port')}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              fullWidth
            />
            <TextField {...form.field('namespace')} label={t('quickSetup.form.namespace')} fullWidth />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {serviceTypes.data?.find((s) => s.name === v.serviceType)?.description ??
              t('quickSetup.form.serviceHelp')}
          </Typography>
          <Accordion
            variant="outlined"
            disableGutters
            expanded={advanced || Boolean(form.errors.baseImage)}
            onChange={(_e, open) => setAdvanced(open)}
          >
            <AccordionSummary expandIcon={<ExpandMore />} id="quick-setup-advanced">
              {t('quickSetup.form.advanced')}
            </AccordionSummary>
            <AccordionDetails>
              <TextField
                {...form.field('baseImage')}
                label={t('quickSetup.form.baseImage')}
                placeholder={template.defaults.baseImage}
                helperText={form.errors.baseImage ?? t('quickSetup.form.baseImageHelp')}
                slotProps={{ htmlInput: { dir: 'ltr' } }}
                fullWidth
              />
            </AccordionDetails>
          </Accordion>
        </Stack>
      </Section>
    </StackedForm>
  );
}
