/** Empty values of the student form, shared by registration and update. */
export const STUDENT_FORM_EMPTY = {
  first_name: '',
  last_name: '',
  email: '',
  phone_number: '',
  gender: '',
  date_of_birth: '',
  student_class: '',
  fathers_name: '',
  fathers_phone: '',
  mothers_name: '',
  mothers_phone: '',
  home_address: '',
  password: '',
  confirm_password: '',
};
