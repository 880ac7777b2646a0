import { LoginPage } from './login-page';

export const AdminLogin = () => <LoginPage role="admin" />;
export const StaffLogin = () => <LoginPage role="staff" />;
export const StudentLogin = () => <LoginPage role="student" />;
export const ParentLogin = () => <LoginPage role="parent" />;
