import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { useStructure } from '../api';
import { QueryView } from '../../../components/ui/query-view';
import { ArmsCard } from '../components/arms-card';
import { SubjectsCard } from '../components/subjects-card';
import { OfferingsCard } from '../components/offerings-card';
import { StreamsCard } from '../components/streams-card';

/** /classes-subjects (admin): arms per class level, the subject catalogue, what each level offers, SSS streams. */
export default function ClassesSubjectsPage() {
  const structure = useStructure();
  return (
    <PageLayout title="Classes and Subjects" width="max-w-6xl">
      <QueryView query={structure} messages={M.loadFailed}>
        {(data) => (
          <div className="flex flex-col gap-5">
            <ArmsCard arms={data.arms} />
            <SubjectsCard subjects={data.subjects} />
            <OfferingsCard structure={data} />
            <StreamsCard streams={data.streams} subjects={data.subjects} />
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}
