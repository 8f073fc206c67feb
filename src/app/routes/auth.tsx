import { PagePlaceholder } from './placeholder';

export default function AuthRoute() {
  return <PagePlaceholder title="Entrar" />;
}
