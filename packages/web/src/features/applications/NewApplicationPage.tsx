import CheckCircle from '@mui/icons-material/CheckCircle';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { applicationCreateSchema, type ApplicationDetail } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { AreaPage } from '../../ui/AreaPage';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { namedOptions, SelectField } from '../../ui/SelectField';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useFormFields } from '../../ui/useFormFields';
import { useEnvironmentsQuery } from '../environments/api';
import { usePipelinesQuery } from '../pipelines/api';
import { useCreateApplicationMutation, useRepositoriesQuery, useServiceTypesQuery } from './api';

/** What the first step asks (spec §2 tour step 3: general details — environment, registry, repository). */
const GENERAL = ['name', 'environmentIds', 'image', 'repositoryId', 'branch'] as const;
const generalSchema = applicationCreateSchema.pick({
  name: true,
  environmentIds: true,
  image: true,
  repositoryId: true,
  branch: true,
});

/**
 * The microservice creation wizard: general details (name, environments, the image in a
 * registry, the repository and branch), then the service (type, port, namespace, pipeline), then
 * the success page with the way on to a pipeline run.
 */
export default function NewApplicationPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('applications.new.title'));
  const navigate = useNavigate();
  const workspaceId = useAppSelector((s) => s.auth.projectId);
  const [step, setStep] = useState(0);
  const [created, setCreated] = useState<ApplicationDetail | null>(null);
  const [create] = useCreateApplicationMutation();
  const environments = useEnvironmentsQuery({ _start: '0', _end: '100', _sort: 'name' });
  const repositories = useRepositoriesQuery();
  const pipelines = usePipelinesQuery({ _start: '0', _end: '500', _sort: 'name' });
  const serviceTypes = useServiceTypesQuery();
  const form = useFormFields(
    {
      name: '',
      environmentIds: [] as string[],
      image: '',
      repositoryId: '',
      branch: 'main',
      serviceType: '',
      port: '',
      namespace: '',
      pipelineId: '',
      serviceUrl: '',
    },
    { idPrefix: 'application' },
  );
  const v = form.values;
  // Slipway's own registry, until the user names another: <server>/<workspace>/<name>
  const suggestedImage = v.name && workspaceId ? `${window.location.host}/${workspaceId}/${v.name}` : '';
  const input = {
    name: v.name,
    environmentIds: v.environmentIds,
    image: v.image || suggestedImage,
    repositoryId: v.repositoryId || null,
    branch: v.branch,
    serviceType: v.serviceType || undefined,
    port: v.port,
    namespace: v.namespace,
    pipelineId: v.pipelineId || null,
    serviceUrl: v.serviceUrl.trim() || null,
  };

  const next = form.handleSubmit({
    schema: generalSchema,
    input,
    mutate: async (body) => ({ data: body }),
    onSuccess: () => setStep(1),
  });
  const submit = form.handleSubmit({
    schema: applicationCreateSchema,
    input,
    mutate: (body) => create(body),
    onSuccess: (application) => setCreated(application),
    onError: (error) => {
      // a refusal of a first-step field (a taken name, say) sends the user back to it
      const details = (error as { data?: { details?: Array<{ path: string }> } } | undefined)?.data?.details;
      if (details?.some((d) => GENERAL.some((f) => d.path === `body.${f}`))) setStep(0);
      return false;
    },
  });

  if (created) {
    return (
      <AreaPage id="application-created" title={t('applications.new.title')}>
        <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }} data-tour="microservice-success">
          <Stack spacing={2} alignItems="flex-start">
            <Stack direction="row" spacing={1} alignItems="center">
              <CheckCircle color="success" />
              <Typography variant="h6" component="h2">
                {t('applications.new.created', { name: created.name })}
              </Typography>
            </Stack>
            <Typography>
              {created.pipelineId
                ? t('applications.new.createdBody')
                : t('applications.new.createdNoPipeline')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              {created.pipelineId ? (
                <Button
                  variant="contained"
                  data-tour="microservice-proceed"
                  onClick={() => void navigate(`/pipelines/${created.pipelineId}`)}
                >
                  {t('applications.new.proceed')}
                </Button>
              ) : null}
              <Button component={RouterLink} to={`/applications/${created.id}`}>
                {t('applications.new.open')}
              </Button>
            </Stack>
          </Stack>
        </Paper>
      </AreaPage>
    );
  }

  return (
    <AreaPage id="application-new" title={t('applications.new.title')}>
      <Box sx={{ maxWidth: 640 }}>
        <Stepper activeStep={step} sx={{ mb: 3 }} alternativeLabel>
          <Step>
            <StepLabel>{t('applications.new.general')}</StepLabel>
          </Step>
          <Step>
            <StepLabel>{t('applications.new.service')}</StepLabel>
          </Step>
        </Stepper>
        <FormAlert message={form.formError} />
        <form
          ref={form.formRef}
          noValidate
          onSubmit={step === 0 ? next : submit}
          aria-label={t('applications.new.title')}
        >
          {step === 0 ? (
            <Stack spacing={2} data-tour="microservice-general-details">
              <TextField
                {...form.field('name')}
                label={t('applications.form.name')}
                helperText={form.errors.name ?? t('applications.form.nameHelp')}
                autoFocus
                fullWidth
              />
              <SelectField
                id="application-environmentIds"
                label={t('applications.form.environments')}
                value={v.environmentIds}
                onChange={(e) => form.setValue('environmentIds', e.target.value as unknown as string[])}
                error={Boolean(form.errors.environmentIds)}
                helperText={form.errors.environmentIds}
                slotProps={{ select: { multiple: true } }}
                options={namedOptions(environments.data?.rows ?? [])}
                fullWidth
              />
              <TextField
                {...form.field('image')}
                label={t('applications.form.image')}
                placeholder={suggestedImage}
                helperText={
                  form.errors.image ?? t('applications.form.imageHelp', { image: suggestedImage || '…' })
                }
                fullWidth
              />
              <SelectField
                {...form.field('repositoryId')}
                label={t('applications.form.repository')}
                none={t('applications.form.noRepository')}
                options={namedOptions(repositories.data ?? [])}
                fullWidth
              />
              <TextField {...form.field('branch')} label={t('applications.form.branch')} fullWidth />
              <div>
                <Button type="submit" variant="contained">
                  {t('applications.new.next')}
                </Button>
              </div>
            </Stack>
          ) : (
            <Stack spacing={2} data-tour="microservice-service">
              <SelectField
                {...form.field('serviceType')}
                label={t('applications.form.serviceType')}
                options={(serviceTypes.data ?? []).map((s) => ({ value: s.name, label: s.name }))}
                helperText={
                  form.errors.serviceType ??
                  serviceTypes.data?.find((s) => s.name === v.serviceType)?.description
                }
                fullWidth
              />
              <TextField
                {...form.field('port')}
                label={t('applications.form.port')}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                fullWidth
              />
              <TextField {...form.field('namespace')} label={t('applications.form.namespace')} fullWidth />
              <SelectField
                {...form.field('pipelineId')}
                label={t('applications.form.pipeline')}
                none={t('applications.form.noPipeline')}
                options={namedOptions(pipelines.data?.rows ?? [])}
                fullWidth
              />
              <TextField {...form.field('serviceUrl')} label={t('applications.form.serviceUrl')} fullWidth />
              <Stack direction="row" spacing={1}>
                <Button onClick={() => setStep(0)}>{t('applications.new.back')}</Button>
                <Button type="submit" variant="contained" loading={form.submitting}>
                  {t('applications.new.create')}
                </Button>
              </Stack>
            </Stack>
          )}
        </form>
      </Box>
    </AreaPage>
  );
}
