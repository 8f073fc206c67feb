import { useParams } from 'react-router-dom';
import { LoginPage } from '@/features/auth/components/login-page';

/** /auth and /:slug */
export default function AuthRoute() {
  const { slug } = useParams();
  return <LoginPage key={slug ?? ''} slug={slug} />;
}
