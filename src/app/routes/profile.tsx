import { PagePlaceholder } from './placeholder';

export default function ProfileRoute() {
  return <PagePlaceholder title="Meu Perfil" />;
}
